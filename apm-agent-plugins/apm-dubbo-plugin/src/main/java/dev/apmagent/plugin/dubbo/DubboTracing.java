package dev.apmagent.plugin.dubbo;

import dev.apmagent.config.Config;
import dev.apmagent.plugin.LibraryHelper;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import dev.apmagent.plugin.InferredTarget;
import dev.apmagent.plugin.ServiceTargets;
import dev.apmagent.plugin.Propagation;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Everything the {@code MonitorFilter.invoke} advice does. Every entry point is an exception barrier: a failure of
 * ours is counted ({@link DubboPluginHealth}) and never reaches the application; Dubbo's objects are only read, except
 * that the consumer side writes the trace headers (strings) into the outgoing invocation's attachments.
 *
 * <ul>
 *   <li>Consumer side (something is active on the thread): an exit span {@code Iface#method}, type
 *   {@code external/dubbo}, child of the active event; {@code traceparent}/{@code tracestate} of the span (or of the
 *   active event when the span is not recorded) replace any the invocation carried. Without an active event nothing
 *   happens at all.</li>
 *   <li>Provider side (nothing active on the thread): a transaction {@code Iface#method} of type {@code request},
 *   continuing the caller's trace from the attachments, active while the filter chain runs.</li>
 *   <li>End: a synchronous result ends the event on exit; an asynchronous one when it completes, on whichever thread
 *   completes it, or at the invocation's timeout plus {@code dubbo_async_grace} if it never does. Exceptions thrown and
 *   exceptions carried by the result are failures and are captured as errors.</li>
 * </ul>
 */
public final class DubboTracing {

    static final String SPAN_TYPE = "external";
    static final String SPAN_SUBTYPE = "dubbo";
    static final String TRANSACTION_TYPE = "request";

    /** {@code service.target.type} and {@code destination.service.resource}, derived once by the shared rules. */
    static final String TARGET_TYPE;
    static final String SERVICE_RESOURCE;

    static {
        InferredTarget target = new InferredTarget();
        ServiceTargets.infer(true, SPAN_TYPE, SPAN_SUBTYPE, null, null, ServiceTargets.CONTEXT_NONE, null, target);
        TARGET_TYPE = target.type();
        SERVICE_RESOURCE = target.resource().toString();
    }

    private static volatile Settings settings;

    private DubboTracing() {
    }

    // ------------------------------------------------------------------ advice entry points

    /**
     * Enter of {@code MonitorFilter.invoke}.
     *
     * @return the span or transaction started here (what the exit needs), or null when nothing was started
     */
    public static Object onEnter(LibraryHelper<DubboAdapter> adapters, Class<?> instrumentedType, Object invoker, Object invocation) {
        try {
            Tracer tracer = GlobalTracer.get();
            if (tracer == null) {
                return null;
            }
            DubboAdapter adapter = adapters.get(instrumentedType);
            if (adapter == null) {
                return null;
            }
            if (adapter.isConsumer(invoker)) {
                return startExitSpan(tracer, adapter, invoker, invocation);
            }
            return startTransaction(tracer, adapter, invoker, invocation);
        } catch (Throwable t) {
            DubboPluginHealth.countFailure();
            return null;
        }
    }

    /** Exit of {@code MonitorFilter.invoke}; {@code scope} is what {@link #onEnter} returned. */
    public static void onExit(LibraryHelper<DubboAdapter> adapters, Class<?> instrumentedType, Object scope, Object invoker,
                              Object invocation, Object result, Throwable thrown) {
        if (scope == null) {
            return;
        }
        AbstractSpan event = (AbstractSpan) scope;
        boolean handedOver = false;
        try {
            Tracer tracer = GlobalTracer.get();
            if (event instanceof Transaction && tracer != null) {
                tracer.deactivate(event);
            }
            DubboAdapter adapter = adapters.get(instrumentedType);
            if (adapter == null) {
                return;
            }
            if (thrown == null && result != null && adapter.isPending(result)) {
                long timeoutNanos = (adapter.timeoutMillis(invoker, invocation) + settings().graceMillis) * 1_000_000L;
                PendingInvocation pending = new PendingInvocation(event, adapter, invoker, invocation, System.nanoTime() + timeoutNanos);
                handedOver = true; // from here on, the pending invocation ends the event exactly once
                AsyncWatchdog.watch(pending);
                try {
                    adapter.whenComplete(result, pending);
                } catch (Throwable t) {
                    DubboPluginHealth.countFailure();
                    pending.accept(result, null); // cannot wait for the result: end now rather than at the deadline
                }
                return;
            }
            // evaluated before the hand-over: reading a failed result can throw (2.7's AsyncRpcResult.getAppResponse)
            Throwable failure = thrown != null ? thrown : result == null ? null : adapter.failure(result);
            handedOver = true;
            finish(tracer, adapter, event, invoker, invocation, failure);
        } catch (Throwable t) {
            DubboPluginHealth.countFailure();
        } finally {
            if (!handedOver) {
                event.end(); // never leave an event of ours open
            }
        }
    }

    // ------------------------------------------------------------------ completion

    /** Completion of an asynchronous invocation (called once, by {@link PendingInvocation}). */
    static void finishAsync(AbstractSpan event, DubboAdapter adapter, Object invoker, Object invocation, Object result, Throwable failure) {
        try {
            finish(GlobalTracer.get(), adapter, event, invoker, invocation, failure != null ? failure : result == null ? null : adapter.failure(result));
        } catch (Throwable t) {
            DubboPluginHealth.countFailure();
            event.end();
        }
    }

    /** An asynchronous invocation whose result never came (called once, by the watchdog). */
    static void expire(AbstractSpan event, DubboAdapter adapter, Object invoker, Object invocation) {
        try {
            event.setOutcome(Outcome.FAILURE);
            if (event instanceof Transaction) {
                ((Transaction) event).setResult(DubboNames.RESULT_TIMEOUT);
            } else {
                setDestination((Span) event, adapter, invoker, invocation);
            }
        } catch (Throwable t) {
            DubboPluginHealth.countFailure();
        } finally {
            event.end();
        }
    }

    private static void finish(Tracer tracer, DubboAdapter adapter, AbstractSpan event, Object invoker, Object invocation, Throwable failure) {
        try {
            Throwable cause = unwrap(failure);
            if (cause != null && tracer != null) {
                tracer.captureException(cause, event);
            }
            event.setOutcome(cause == null ? Outcome.SUCCESS : Outcome.FAILURE);
            if (event instanceof Transaction) {
                ((Transaction) event).setResult(DubboNames.result(cause, cause != null && adapter.isTimeout(cause)));
            } else {
                setDestination((Span) event, adapter, invoker, invocation);
            }
        } finally {
            event.end();
        }
    }

    // ------------------------------------------------------------------ start

    private static Span startExitSpan(Tracer tracer, DubboAdapter adapter, Object invoker, Object invocation) {
        AbstractSpan parent = tracer.active();
        if (parent == null || adapter.isInJvm(invoker)) {
            return null;
        }
        Span span = tracer.createSpan(parent);
        if (span != null) {
            span.setType(SPAN_TYPE, SPAN_SUBTYPE, null);
            span.setExit(true);
            DubboNames.appendName(span.nameBuilder(), adapter.serviceInterface(invoker), adapter.methodName(invocation));
            span.context().serviceTarget().set(TARGET_TYPE, null);
            span.context().destination().setServiceResource(SERVICE_RESOURCE);
        }
        // the outbound context replaces whatever the invocation carried (a provider's inbound headers included)
        adapter.clearTraceHeaders(invocation);
        Propagation.inject(span != null ? span : parent, invocation, adapter, false);
        return span;
    }

    private static Transaction startTransaction(Tracer tracer, DubboAdapter adapter, Object invoker, Object invocation) {
        if (tracer.active() != null) {
            return null; // a provider chain run by a traced caller's own thread belongs to that caller's trace
        }
        Transaction transaction = Propagation.startTransaction(tracer, invocation, adapter);
        transaction.setType(TRANSACTION_TYPE);
        DubboNames.appendName(transaction.nameBuilder(), adapter.serviceInterface(invoker), adapter.methodName(invocation));
        tracer.activate(transaction);
        return transaction;
    }

    // ------------------------------------------------------------------ internals

    private static void setDestination(Span span, DubboAdapter adapter, Object invoker, Object invocation) {
        String host = adapter.remoteHost(invoker, invocation);
        if (host != null) {
            span.context().destination().setAddress(host, adapter.remotePort(invoker, invocation));
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

    static Settings settings() {
        Config config = GlobalTracer.config();
        Settings s = settings;
        if (s == null || s.config != config) {
            s = new Settings(config);
            settings = s;
        }
        return s;
    }

    /** The plugin's options, resolved once per configuration snapshot. */
    static final class Settings {
        final Config config;
        final long graceMillis;

        Settings(Config config) {
            this.config = config;
            Config c = config == null ? Config.defaults() : config;
            this.graceMillis = c.get(DubboOptions.DUBBO_ASYNC_GRACE);
        }
    }
}
