package dev.apmagent.plugin.okhttp;

import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.HttpClientExits;
import dev.apmagent.plugin.HttpClientExits.PendingHttpExit;
import dev.apmagent.plugin.LibraryHelper;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Tracer;


/**
 * Everything the OkHttp advice does, on the kit's {@link HttpClientExits}. Every entry point is an exception barrier:
 * a failure of ours is counted ({@code plugin: okhttp}) and never reaches the application.
 *
 * <ul>
 *   <li>{@code execute} and {@code enqueue} (enter): nothing active, nothing done (two reads, no allocation). Else the
 *   kit enters the call (one span per logical request: a call inside another HTTP client's call, an interceptor's own
 *   call, is nested) and gives the headers to add; the call's request is replaced by a copy that carries them, unless
 *   the application's request has a {@code traceparent} already.</li>
 *   <li>{@code execute} (exit): the span gets the status code or the exception, and ends.</li>
 *   <li>{@code enqueue}: the span is handed over ({@link HttpClientExits#exitPending}) before OkHttp's dispatcher sees
 *   the call, and remembered with the caller's context on the call. On the dispatcher thread, the run of the call
 *   activates the caller's context; the span ends when the interceptor chain returns the response or throws (before
 *   the application's callback runs, so a callback that throws cannot affect it); the run's end deactivates the caller's
 *   context. A call whose run never comes (rejected by the dispatcher's executor) is ended by the kit's deadline scan
 *   after {@value HttpClientExits#PENDING_MINUTES} minutes.</li>
 * </ul>
 */
public final class OkHttpHelper {

    static final PluginHealth health = PluginHealth.of(OkHttpPlugin.NAME);
    /** Enqueued calls whose state the full store could not take: their span ends at the deadline, outcome unknown. */
    static final PluginHealth.Counter asyncNotRemembered = health.counter("async_not_remembered");

    static final LibraryHelper<OkHttpApi> apis = new LibraryHelper<OkHttpApi>(OkHttpApi.class,
            "dev.apmagent.plugin.okhttp.helper.OkHttp3Api", "dev.apmagent.plugin.okhttp.helper.");
    static final HttpClientExits<OkHttpRequest> exits = new HttpClientExits<OkHttpRequest>(OkHttpRequest.reader, health);
    /**
     * The request copies this plugin made, so that a call made again with one ({@code call.clone()}, or
     * {@code client.newCall(call.request())}: a retry) gets the trace headers of its own span instead of keeping the
     * earlier call's as if the application had set them. Map only (a {@code Request} is no key type), weak, bounded.
     */
    static final ContextStore<Boolean> requestCopies = new ContextStore<Boolean>(65_536, 14);
    /** Enqueued calls in flight; a context field on OkHttp's {@code RealCall} (see the instrumentation's key type). */
    static final ContextStore<AsyncCallState> asyncCalls = ContextStore.forType(RealCallInstrumentation.CALL_TYPE, 65_536, 14);

    private OkHttpHelper() {
    }

    /**
     * Enter of {@code RealCall.execute()}.
     *
     * @return the traced call (for {@link #requestToSend} and {@link #exitExecute}), or null when nothing is traced
     */
    public static Object enterExecute(Class<?> realCallType, Object request) {
        if (request == null || !HttpClientExits.anythingActive()) {
            return null;
        }
        OkHttpRequest traced;
        try {
            OkHttpApi api = apis.get(realCallType);
            if (api == null) {
                return null;
            }
            traced = new OkHttpRequest(api, request, requestCopies.get(request) != null);
        } catch (Throwable t) {
            health.failure();
            return null;
        }
        traced.call = exits.enter(traced); // a barrier itself; from here on the call must reach an exit
        try {
            traced.sent = traced.withAddedHeaders();
            if (traced.sent != request) {
                requestCopies.put(traced.sent, Boolean.TRUE);
            }
        } catch (Throwable t) {
            health.failure(); // sent without trace context; the span is still recorded
        }
        return traced;
    }

    /** The request the call is to send: a copy with the trace headers, or {@code request} itself. */
    public static Object requestToSend(Object traced, Object request) {
        return traced == null ? request : ((OkHttpRequest) traced).sent;
    }

    /** Exit of {@code RealCall.execute()}: the span gets the status code or the exception, and ends. */
    public static void exitExecute(Object traced, Object response, Throwable thrown) {
        if (traced == null) {
            return;
        }
        OkHttpRequest r = (OkHttpRequest) traced;
        exits.exit(r.call, statusCode(r.api, response), thrown);
    }

    /**
     * Enter of {@code RealCall.enqueue(callback)}: as {@link #enterExecute}, then the span is handed over and the call
     * remembers it with the caller's context.
     */
    public static Object enterEnqueue(Class<?> realCallType, Object realCall, Object request) {
        Object traced = enterExecute(realCallType, request);
        if (traced == null) {
            return null;
        }
        OkHttpRequest r = (OkHttpRequest) traced;
        PendingHttpExit pending = exits.exitPending(r.call, HttpClientExits.PENDING_NANOS, false);
        if (pending == null) {
            return traced; // nested, or no span recorded: the request carries the context all the same
        }
        try {
            Tracer tracer = GlobalTracer.get();
            AbstractSpan caller = tracer == null ? null : tracer.active();
            AsyncCallState state = new AsyncCallState(pending, caller);
            if (caller != null) {
                caller.incrementReferences();
            }
            if (asyncCalls.put(realCall, state)) {
                r.async = state;
            } else {
                asyncNotRemembered.increment();
                release(null, state);
            }
        } catch (Throwable t) {
            health.failure();
        }
        return traced;
    }

    /** Exit of {@code RealCall.enqueue(callback)}: a call that threw (already enqueued once) ends its span now. */
    public static void exitEnqueue(Object traced, Object realCall, Throwable thrown) {
        if (traced == null || thrown == null) {
            return;
        }
        try {
            AsyncCallState state = ((OkHttpRequest) traced).async;
            if (state != null && asyncCalls.get(realCall) == state) {
                asyncCalls.remove(realCall);
                state.pending.complete(-1, thrown);
                release(null, state);
            }
        } catch (Throwable t) {
            health.failure();
        }
    }

    /**
     * Enter of the run of an enqueued call on the dispatcher thread ({@code AsyncCall.execute()} in 3.x,
     * {@code run()} in 4.x and 5.x): activates the caller's context.
     *
     * @return the call's state, or null when it was not traced
     */
    public static Object asyncRunStarts(Object realCall) {
        try {
            AsyncCallState state = asyncCalls.get(realCall);
            if (state == null) {
                return null;
            }
            Tracer tracer = GlobalTracer.get();
            if (tracer != null && state.caller != null) {
                tracer.activate(state.caller);
                state.activated = true;
            }
            return state;
        } catch (Throwable t) {
            health.failure();
            return null;
        }
    }

    /**
     * Exit of {@code RealCall.getResponseWithInterceptorChain()}, on the thread that ran the call: an enqueued call's
     * span ends with the response's status code or the exception. Nothing for a call that was not enqueued and traced.
     */
    public static void responseArrived(Class<?> realCallType, Object realCall, Object response, Throwable thrown) {
        try {
            AsyncCallState state = asyncCalls.get(realCall);
            if (state != null) {
                state.pending.complete(response == null ? -1 : statusCode(apis.get(realCallType), response), thrown);
            }
        } catch (Throwable t) {
            health.failure();
        }
    }

    /** Exit of the run of an enqueued call: ends the span if nothing did, deactivates and releases the caller's context. */
    public static void asyncRunEnds(Object state, Object realCall) {
        if (state == null) {
            return;
        }
        try {
            AsyncCallState s = (AsyncCallState) state;
            if (asyncCalls.get(realCall) == s) {
                asyncCalls.remove(realCall);
            }
            s.pending.complete(-1, null); // no-op when the response or the failure ended it
            release(GlobalTracer.get(), s);
        } catch (Throwable t) {
            health.failure();
        }
    }

    private static void release(Tracer tracer, AsyncCallState state) {
        if (state.caller == null) {
            return;
        }
        try {
            if (state.activated && tracer != null) {
                state.activated = false;
                tracer.deactivate(state.caller);
            }
        } finally {
            state.caller.decrementReferences();
        }
    }

    private static int statusCode(OkHttpApi api, Object response) {
        if (response == null || api == null) {
            return -1;
        }
        try {
            return api.code(response);
        } catch (Throwable t) {
            health.failure();
            return -1;
        }
    }
}
