package dev.apmagent.plugin.jdkhttp;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.plugin.HttpClientCall;
import dev.apmagent.plugin.HttpClientExits;
import dev.apmagent.plugin.HttpClientExits.PendingHttpExit;
import dev.apmagent.plugin.HttpClientRequest;
import dev.apmagent.plugin.PluginHealth;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;

/**
 * The agent's side of {@link HttpClientInstrumentation}, each handler an exception barrier.
 * <ul>
 *   <li>{@code send}: the kit's span around the call; the status is the response's, the exception the call's
 *   ({@code HttpTimeoutException}, {@code ConnectException}, ...), captured and rethrown unchanged.</li>
 *   <li>{@code sendAsync}: the span starts in the call, is handed to a {@link PendingHttpExit} when the call returns
 *   its future, and ends on the thread that completes the future (the client's executor), through a callback of ours
 *   registered on that future ({@code whenComplete}): what the application chains on the same future, a callback that
 *   throws included, runs beside it and changes nothing for the span. A future that never completes (no timeout set,
 *   a server that never answers) is ended by the kit's deadline scan after {@value HttpClientExits#PENDING_MINUTES} minutes.</li>
 * </ul>
 * The trace headers go into a copy of the request (JDK 16 and later; see {@link JdkHttpApi}), which the advice passes
 * on in place of the application's: {@code response.request()} is then that copy. Nothing is allocated while nothing
 * is active.
 */
final class HttpClientHandlers {


    static final PluginHealth health = PluginHealth.of(JdkHttpPlugin.NAME);
    private static final PluginHealth.Counter notInjected = health.counter("httpclient_headers_not_injected");
    static final HttpClientExits<Request> exits = new HttpClientExits<Request>(new Requests(), health);

    private HttpClientHandlers() {
    }

    /** Enter of both methods: null when nothing is traced, else the request's state. */
    static Request enter(Object request) {
        if (!HttpClientExits.anythingActive()) {
            return null;
        }
        try {
            Request r = new Request(request);
            r.call = exits.enter(r);
            if (r.headerCount > 0) {
                r.replacement = JdkHttpApi.copyWithHeaders(request, r.names, r.values, r.headerCount);
                if (r.replacement == null) {
                    notInjected.increment();
                }
            }
            return r.call == null && r.replacement == null ? null : r;
        } catch (Throwable t) {
            health.failure();
            return null;
        }
    }

    /** What both methods do at enter: the request's state, and the copy with the headers in place of the request. */
    abstract static class Sending extends BridgeHandler {
        Sending(int hook) {
            super(hook);
        }

        @Override
        public final Object enter(Object client, Object request, Object unused) {
            return HttpClientHandlers.enter(request);
        }

        @Override
        public final Object replacement(Object state, Object request) {
            Object replacement = ((Request) state).replacement;
            return replacement != null ? replacement : request;
        }
    }

    /** {@code send(request, handler)}. */
    public static final class Send extends Sending {
        public Send() {
            super(Bridge.HTTPCLIENT_SEND);
        }

        @Override
        public void exit(Object state, Object client, Object unused, Object response, Throwable thrown) {
            if (state == null) {
                return;
            }
            HttpClientCall call = ((Request) state).call;
            int status = -1;
            try {
                if (thrown == null && response != null && call != null && !call.isNested()) {
                    status = JdkHttpApi.statusCode(response);
                }
            } catch (Throwable t) {
                health.failure();
            }
            exits.exit(call, status, thrown);
        }
    }

    /** {@code sendAsync(request, handler[, pushPromiseHandler])}. */
    public static final class SendAsync extends Sending {
        public SendAsync() {
            super(Bridge.HTTPCLIENT_SEND_ASYNC);
        }

        @Override
        @SuppressWarnings("unchecked")
        public void exit(Object state, Object client, Object unused, Object future, Throwable thrown) {
            if (state == null) {
                return;
            }
            HttpClientCall call = ((Request) state).call;
            if (call == null) {
                return;
            }
            if (thrown != null || !(future instanceof CompletableFuture)) {
                exits.exit(call, -1, thrown);
                return;
            }
            PendingHttpExit pending = exits.exitPending(call, HttpClientExits.PENDING_NANOS, false);
            if (pending == null) {
                return;
            }
            try {
                ((CompletableFuture<Object>) future).whenComplete(new Completion(pending));
            } catch (Throwable t) {
                health.failure();
                pending.complete(-1, null); // cannot wait for the response: end now rather than at the deadline
            }
        }
    }

    /** Ends an asynchronous request's span when its future completes, on the completing thread. */
    static final class Completion implements BiConsumer<Object, Throwable> {
        private final PendingHttpExit pending;

        Completion(PendingHttpExit pending) {
            this.pending = pending;
        }

        @Override
        public void accept(Object response, Throwable failure) {
            int status = -1;
            try {
                if (failure == null && response != null) {
                    status = JdkHttpApi.statusCode(response);
                }
            } catch (Throwable t) {
                health.failure();
            }
            pending.complete(status, unwrap(failure));
        }
    }

    /** The failure itself, without the wrappers of {@code CompletableFuture}. */
    static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        for (int i = 0; i < 4 && (t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null; i++) {
            t = t.getCause();
        }
        return t;
    }

    /** One request being sent: the application's, the headers the kit gave it, the copy that carries them. */
    static final class Request {
        final Object request;
        private URI uri;
        final String[] names = new String[3];
        final String[] values = new String[3];
        int headerCount;
        HttpClientCall call;
        Object replacement;

        Request(Object request) {
            this.request = request;
        }

        URI uri() throws Throwable {
            if (uri == null) {
                uri = JdkHttpApi.uri(request);
            }
            return uri;
        }
    }

    /**
     * How the kit reads an {@code HttpRequest}; the headers it sets are collected for the copy. The method handles
     * declare {@code Throwable}: what they throw is rethrown unchecked, for the kit's barrier to count.
     */
    static final class Requests implements HttpClientRequest<Request> {

        @Override
        public String method(Request r) {
            try {
                return JdkHttpApi.method(r.request);
            } catch (Throwable t) {
                throw unchecked(t);
            }
        }

        @Override
        public String scheme(Request r) {
            return uri(r).getScheme();
        }

        @Override
        public String host(Request r) {
            return uri(r).getHost();
        }

        @Override
        public int port(Request r) {
            return uri(r).getPort();
        }

        @Override
        public String path(Request r) {
            return uri(r).getRawPath();
        }

        @Override
        public String query(Request r) {
            return uri(r).getRawQuery();
        }

        @Override
        public String header(Request r, String name) {
            for (int i = 0; i < r.headerCount; i++) {
                if (r.names[i].equals(name)) {
                    return r.values[i];
                }
            }
            try {
                return JdkHttpApi.firstHeader(r.request, name);
            } catch (Throwable t) {
                throw unchecked(t);
            }
        }

        @Override
        public void set(Request r, String name, String value) {
            if (r.headerCount < r.names.length) {
                r.names[r.headerCount] = name;
                r.values[r.headerCount] = value;
                r.headerCount++;
            }
        }

        private static URI uri(Request r) {
            try {
                return r.uri();
            } catch (Throwable t) {
                throw unchecked(t);
            }
        }

        private static RuntimeException unchecked(Throwable t) {
            if (t instanceof RuntimeException) {
                return (RuntimeException) t;
            }
            if (t instanceof Error) {
                throw (Error) t;
            }
            return new IllegalStateException(t);
        }
    }
}
