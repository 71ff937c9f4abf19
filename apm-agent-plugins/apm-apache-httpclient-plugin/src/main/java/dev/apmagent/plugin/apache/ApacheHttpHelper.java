package dev.apmagent.plugin.apache;

import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.HttpClientCall;
import dev.apmagent.plugin.HttpClientExits;
import dev.apmagent.plugin.HttpClientExits.PendingHttpExit;
import dev.apmagent.plugin.LibraryHelper;
import dev.apmagent.plugin.PluginHealth;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything the advice of {@link ApacheHttpClientPlugin} does, each entry point an exception barrier; the span, its
 * fields, nesting and trace headers are the kit's ({@link dev.apmagent.plugin.HttpClientExits}).
 *
 * <ul>
 *   <li><b>Classic</b> (4.x {@code ClientExecChain}, 5.x {@code ExecChainHandler}): every handler of the client's
 *   exec chain is advised. The outermost (a redirect, retry or protocol handler, whichever the builder put first)
 *   records the span; the handlers it calls, once per physical request (a retry, a redirect), are nested and only
 *   make sure the request they send carries the trace headers. {@link #enter} and {@link #exit}.</li>
 *   <li><b>Async</b>: the call that sends (4.x {@code HttpAsyncClient.execute(producer, consumer, context, callback)},
 *   5.x the outermost {@code AsyncExecChainHandler.execute}) starts the span and, when it returns, hands it to a
 *   {@link PendingHttpExit} kept under a key the completion sees: the response consumer it was given (4.x;
 *   {@code AbstractAsyncResponseConsumer.responseReceived/failed/cancel}; the future it returns is a wrapper the
 *   client never completes itself) or the client's exchange callback (5.x; {@code handleResponse}, {@code failed}).
 *   The completion ends the span on the thread it runs on (the I/O reactor's), before the application's callback
 *   runs: what the callback does or throws changes nothing for the span. A completion that comes before the sending
 *   call returned is kept (only while such a call is in progress) and applied when it returns. One that never comes is ended by the kit's deadline scan after {@value HttpClientExits#PENDING_MINUTES} minutes.</li>
 * </ul>
 */
public final class ApacheHttpHelper {


    static final PluginHealth health = PluginHealth.of(ApacheHttpClientPlugin.NAME);
    /** Async requests whose producer the plugin cannot read (an application's own {@code HttpAsyncRequestProducer}). */
    private static final PluginHealth.Counter unreadable = health.counter("requests_not_traced");
    /** Completions that came before the call that sent the request returned. */
    private static final PluginHealth.Counter early = health.counter("completed_before_send_returned");

    public static final LibraryHelper<ApacheHttp> v4 = new LibraryHelper<ApacheHttp>(ApacheHttp.class,
            "dev.apmagent.plugin.apache.helper4.Apache4Http", "dev.apmagent.plugin.apache.helper4.");
    public static final LibraryHelper<ApacheHttp> v5 = new LibraryHelper<ApacheHttp>(ApacheHttp.class,
            "dev.apmagent.plugin.apache.helper5.Apache5Http", "dev.apmagent.plugin.apache.helper5.");

    /** Async requests in flight, by the key their completion sees. Map-only: consumers and callbacks are many classes. */
    private static final ContextStore<PendingHttpExit> pendingByKey = new ContextStore<PendingHttpExit>(16_384, 10);
    /** Completions that found no pending request, kept only while a sending call is in progress ({@link #sending}). */
    private static final ContextStore<Completion> completedFirst = new ContextStore<Completion>(1_024, 6);
    private static final AtomicInteger sending = new AtomicInteger();

    private ApacheHttpHelper() {
    }

    /**
     * Enter of a call that sends {@code request} (a request, or a 4.x async request producer).
     *
     * @return the kit's call for the exit, or null when nothing is traced (nothing active: two reads, nothing allocated)
     */
    public static Object enter(LibraryHelper<ApacheHttp> apis, Class<?> type, Object request) {
        if (!HttpClientExits.anythingActive()) {
            return null;
        }
        try {
            ApacheHttp api = apis.get(type);
            if (api == null) {
                return null;
            }
            if (!api.traceable(request)) {
                unreadable.increment();
                return null;
            }
            return api.exits.enter(request);
        } catch (Throwable t) {
            health.failure();
            return null;
        }
    }

    /** Exit of a classic call: the status of {@code response}, or what the call threw, ends the outermost call's span. */
    public static void exit(LibraryHelper<ApacheHttp> apis, Class<?> type, Object call, Object response, Throwable thrown) {
        if (!(call instanceof HttpClientCall)) {
            return;
        }
        ApacheHttp api = apis.get(type); // enter found it for the same class
        if (api == null) {
            ((HttpClientCall) call).exit(thrown); // never happens; the call is left all the same
            return;
        }
        int status = -1;
        try {
            if (response != null && thrown == null) {
                status = api.statusCode(response);
            }
        } catch (Throwable t) {
            health.failure();
        }
        api.exits.exit((HttpClientCall) call, status, thrown);
    }

    /**
     * Enter of an async call that sends {@code request}: {@link #enter}, and an outermost call is counted as sending
     * until its exit, so that a response that comes before the exit is kept for it ({@link #complete}).
     */
    public static Object enterAsync(LibraryHelper<ApacheHttp> apis, Class<?> type, Object request) {
        Object call = enter(apis, type, request);
        if (call instanceof HttpClientCall && !((HttpClientCall) call).isNested()) {
            sending.incrementAndGet();
        }
        return call;
    }

    /**
     * Exit of an async call that {@link #enterAsync} entered: a nested call only goes up; the outermost hands its span
     * to a pending request kept under {@code completionKey} (the response consumer, or the exchange callback), unless
     * it threw: then the span ends here with the exception.
     */
    public static void exitAsync(LibraryHelper<ApacheHttp> apis, Class<?> type, Object call, Object completionKey, Throwable thrown) {
        if (!(call instanceof HttpClientCall)) {
            return;
        }
        HttpClientCall c = (HttpClientCall) call;
        boolean outermost = !c.isNested();
        try {
            ApacheHttp api = apis.get(type); // enter found it for the same class
            if (api == null) {
                c.exit(thrown); // never happens; the call is left all the same, as in exit
                return;
            }
            if (thrown != null || completionKey == null || !outermost) {
                api.exits.exit(c, -1, thrown);
                return;
            }
            PendingHttpExit pending = api.exits.exitPending(c, HttpClientExits.PENDING_NANOS, false);
            if (pending != null) {
                if (!pendingByKey.put(completionKey, pending)) {
                    health.failure(); // the store is full: the deadline scan ends it
                }
                Completion first = completedFirst.remove(completionKey);
                if (first != null && pendingByKey.remove(completionKey) != null) {
                    early.increment();
                    pending.complete(first.status, first.failure);
                }
            }
        } catch (Throwable t) {
            health.failure();
        } finally {
            if (outermost) {
                sending.decrementAndGet();
            }
        }
    }

    /**
     * A completion of what {@code key} stands for (a future, an exchange callback): the response or result
     * ({@code responseOrResult}, may be null), or the failure. Called for every such completion in the library: two reads
     * while no async request is traced, else a map lookup.
     */
    public static void complete(LibraryHelper<ApacheHttp> apis, Class<?> type, Object key, Object responseOrResult, Throwable failure) {
        if (pendingByKey.size() == 0 && sending.get() == 0) {
            return; // no async request traced: not even an identity hash of the key
        }
        try {
            PendingHttpExit pending = pendingByKey.remove(key);
            if (pending == null && sending.get() == 0) {
                return;
            }
            int status = -1;
            if (responseOrResult != null) {
                ApacheHttp api = apis.get(type);
                status = api == null ? -1 : api.statusCode(responseOrResult);
            }
            if (pending == null) {
                // perhaps the sending call has not stored it yet: leave the outcome for it, then look once more. The
                // first completion wins: a callback of the application that throws after the response makes the
                // client report a failure too (5.x), which must not replace the response.
                completedFirst.putIfAbsent(key, new Completion(status, failure));
                pending = pendingByKey.remove(key);
                if (pending == null) {
                    return;
                }
                completedFirst.remove(key);
            }
            pending.complete(status, failure);
        } catch (Throwable t) {
            health.failure();
        }
    }

    /** A cancelled request: the span ends as the application's {@code get()} will, with a {@code CancellationException}. */
    public static void cancel(LibraryHelper<ApacheHttp> apis, Class<?> type, Object key) {
        if (pendingByKey.size() == 0 || pendingByKey.get(key) == null) {
            return;
        }
        complete(apis, type, key, null, new CancellationException("request cancelled"));
    }

    /** An outcome that came before its pending request was stored. */
    private static final class Completion {
        final int status;
        final Throwable failure;

        Completion(int status, Throwable failure) {
            this.status = status;
            this.failure = failure;
        }
    }
}
