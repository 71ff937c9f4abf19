package dev.apmagent.plugin.jdkhttp;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.HttpClientCall;
import dev.apmagent.plugin.HttpClientExits;
import dev.apmagent.plugin.HttpClientExits.PendingHttpExit;
import dev.apmagent.plugin.HttpClientRequest;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.Tracer;

import java.net.HttpURLConnection;
import java.net.URL;

/**
 * The agent's side of {@link UrlConnectionInstrumentation}: one handler per advised method, one request per
 * connection object, each handler an exception barrier.
 *
 * <h2>A request over several calls</h2>
 * <ul>
 *   <li><b>The first call</b> on a connection that is not connected yet ({@code connect}, {@code getOutputStream},
 *   {@code getInputStream} or {@code getResponseCode}, whichever the application calls first), while an event is
 *   active, enters the kit ({@link HttpClientExits#enter}): the span starts and the headers go in
 *   ({@code setRequestProperty}, the only moment they can). A connection already connected when first seen (it was
 *   connected outside a trace) is left alone.</li>
 *   <li>If that call <b>reads the response</b> ({@code getInputStream}, {@code getResponseCode}) or throws, the span
 *   ends at its exit: the status code is the connection's {@code responseCode} field (a 4xx or 5xx makes
 *   {@code getInputStream} throw: the status decides the outcome and that exception, the application's to handle, is
 *   not captured; an exception without a status, such as a refused connection or a read timeout, is captured).</li>
 *   <li>Otherwise ({@code connect} or {@code getOutputStream} returned: the request body may follow) the span is
 *   handed to a {@link PendingHttpExit}, remembered for the connection; the next call that reads the response or
 *   throws ends it the same way, and {@code disconnect()} ends it with the outcome unknown. Calls nested in another
 *   ({@code getResponseCode} calling {@code getInputStream} calling {@code connect}) are the kit's nested calls and do
 *   nothing of their own.</li>
 *   <li><b>A response never read</b> (the application connects or writes and never asks for the response, nor
 *   disconnects): the span is ended by the kit's deadline scan {@value HttpClientExits#PENDING_MINUTES} minutes after the request
 *   started, with the duration up to the last call the application made on the connection and the outcome unknown
 *   (counted as {@code agent.plugin.expired} under {@code plugin: pending-spans}). The connection is never held: the
 *   store maps it weakly, and the pending request holds only the span.</li>
 * </ul>
 * Nothing is done, and nothing allocated, on a connection used while nothing is active and no request of this kind is
 * pending anywhere (one volatile read, the tracer's active-stack lookup, the store's size).
 *
 * <p>Counters under {@code plugin: jdk-http}: {@code agent.plugin.failures}, and
 * {@code urlconnection_not_remembered} (a pending request the full store could not keep: its span ended at once).
 */
final class UrlConnectionHandlers {

    static final int MAX_PENDING = 16_384;

    static final PluginHealth health = PluginHealth.of(JdkHttpPlugin.NAME);
    private static final PluginHealth.Counter notRemembered = health.counter("urlconnection_not_remembered");
    static final HttpClientExits<HttpURLConnection> exits = new HttpClientExits<HttpURLConnection>(new Requests(), health);
    /**
     * Connections whose request is in progress between two calls. Map only: the JDK's classes are loaded before the
     * agent and get no context field.
     */
    static final ContextStore<PendingHttpExit> pending = new ContextStore<PendingHttpExit>(MAX_PENDING, 12);
    /**
     * How deeply this thread is inside calls on a pending request: the library calls itself ({@code getInputStream}
     * asks {@code getResponseCode}, which calls {@code getInputStream} again, before the status is parsed), and only
     * the outermost call's exit may end the request. One {@code int[1]} per thread that ever continues a request.
     */
    private static final ThreadLocal<int[]> pendingDepth = new ThreadLocal<int[]>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    private UrlConnectionHandlers() {
    }

    /** What every advised method does; {@code readsResponse}: whether its return means the response is there. */
    abstract static class Handler extends BridgeHandler {

        private final boolean readsResponse;
        private final boolean disconnects;

        Handler(int hook, boolean readsResponse, boolean disconnects) {
            super(hook);
            this.readsResponse = readsResponse;
            this.disconnects = disconnects;
        }

        /** @param connected the connection's {@code connected} field at entry (a cached {@code Boolean}) */
        @Override
        public final Object enter(Object connection, Object connected, Object unused) {
            Tracer tracer = GlobalTracer.get();
            if (tracer == null) {
                return null;
            }
            try {
                if (pending.size() > 0) {
                    PendingHttpExit request = pending.get(connection);
                    if (request != null) {
                        request.touch();
                        pendingDepth.get()[0]++;
                        return request;
                    }
                }
                if (disconnects || connected == Boolean.TRUE || tracer.active() == null
                        || !(connection instanceof HttpURLConnection)) {
                    return null;
                }
                return exits.enter((HttpURLConnection) connection);
            } catch (Throwable t) {
                health.failure();
                return null;
            }
        }

        /** @param responseCode the connection's {@code responseCode} field at exit (an {@code Integer}, -1 for none) */
        @Override
        public final void exit(Object state, Object connection, Object responseCode, Object result, Throwable thrown) {
            if (state == null) {
                return;
            }
            try {
                int status = responseCode instanceof Integer ? ((Integer) responseCode).intValue() : -1;
                Throwable failure = status > 0 ? null : thrown; // with a status, the status tells
                if (state instanceof PendingHttpExit) {
                    finishPending((PendingHttpExit) state, connection, status, failure, thrown != null);
                } else {
                    finishCall((HttpClientCall) state, connection, status, failure, thrown != null);
                }
            } catch (Throwable t) {
                health.failure();
            }
        }

        private void finishPending(PendingHttpExit request, Object connection, int status, Throwable failure, boolean threw) {
            int[] depth = pendingDepth.get();
            if (--depth[0] > 0) {
                return; // inside another call on the request: the outermost one decides
            }
            depth[0] = 0;
            if (disconnects) {
                pending.remove(connection);
                AbstractSpan span = request.take();
                if (span != null) {
                    span.end(); // the application gave up on the response: outcome unknown
                }
            } else if (readsResponse || threw) {
                pending.remove(connection);
                request.complete(status, failure);
            }
        }

        private void finishCall(HttpClientCall call, Object connection, int status, Throwable failure, boolean threw) {
            if (call.isNested() || readsResponse || threw) {
                exits.exit(call, status, failure);
                return;
            }
            PendingHttpExit request = exits.exitPending(call, HttpClientExits.PENDING_NANOS, true);
            if (request != null && !pending.put(connection, request)) {
                notRemembered.increment();
                request.complete(status, null);
            }
        }
    }

    /** {@code connect()}. */
    public static final class Connect extends Handler {
        public Connect() {
            super(Bridge.URLCONNECTION_CONNECT, false, false);
        }
    }

    /** {@code getOutputStream()}. */
    public static final class Output extends Handler {
        public Output() {
            super(Bridge.URLCONNECTION_OUTPUT, false, false);
        }
    }

    /** {@code getInputStream()}. */
    public static final class Input extends Handler {
        public Input() {
            super(Bridge.URLCONNECTION_INPUT, true, false);
        }
    }

    /** {@code getResponseCode()}. */
    public static final class ResponseCode extends Handler {
        public ResponseCode() {
            super(Bridge.URLCONNECTION_RESPONSE_CODE, true, false);
        }
    }

    /** {@code disconnect()}. */
    public static final class Disconnect extends Handler {
        public Disconnect() {
            super(Bridge.URLCONNECTION_DISCONNECT, false, true);
        }
    }

    /** How the kit reads a connection's request: its URL and request properties. */
    static final class Requests implements HttpClientRequest<HttpURLConnection> {

        @Override
        public String method(HttpURLConnection c) {
            return c.getRequestMethod();
        }

        @Override
        public String scheme(HttpURLConnection c) {
            return c.getURL().getProtocol();
        }

        @Override
        public String host(HttpURLConnection c) {
            return c.getURL().getHost();
        }

        @Override
        public int port(HttpURLConnection c) {
            return c.getURL().getPort();
        }

        @Override
        public String path(HttpURLConnection c) {
            URL url = c.getURL();
            return url.getFile(); // path and query, as the URL holds them
        }

        @Override
        public String query(HttpURLConnection c) {
            return null;
        }

        @Override
        public String header(HttpURLConnection c, String name) {
            return c.getRequestProperty(name);
        }

        @Override
        public void set(HttpURLConnection c, String name, String value) {
            c.setRequestProperty(name, value);
        }
    }
}
