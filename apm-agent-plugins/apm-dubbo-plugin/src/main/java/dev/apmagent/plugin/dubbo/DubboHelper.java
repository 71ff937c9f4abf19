package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.InferredTarget;
import dev.apmagent.plugin.LibraryHelper;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.plugin.Propagation;
import dev.apmagent.plugin.ServiceTargets;
import dev.apmagent.plugin.SpanExit;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Everything the {@code MonitorFilter.invoke} advice does. Every entry point is an exception barrier: a failure of
 * ours is counted (the plugin's {@link PluginHealth}) and never reaches the application; Dubbo's objects are only
 * read, except that the consumer side writes the trace headers (strings) into the outgoing invocation's attachments.
 *
 * <ul>
 *   <li>Consumer side (something is active on the thread): an exit span {@code Iface#method}, type
 *   {@code external/dubbo}, child of the active event; {@code traceparent}/{@code tracestate} of the span (or of the
 *   active event when the span is not recorded) replace any the invocation carried. Without an active event nothing
 *   happens at all.</li>
 *   <li>Provider side (nothing active on the thread): a transaction {@code Iface#method} of type {@code request},
 *   continuing the caller's trace from the attachments, active while the filter chain runs.</li>
 *   <li>End: a synchronous result ends the event on exit; an asynchronous one when it completes, on whichever thread
 *   completes it, or at the invocation's timeout plus {@code dubbo_async_grace} if it never does
 *   ({@link AsyncWatchdog}). Exceptions thrown and exceptions carried by the result are failures and are captured as
 *   errors ({@link SpanExit}).</li>
 * </ul>
 */
public final class DubboHelper {

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

    static final PluginHealth health = PluginHealth.of(DubboPlugin.NAME);

    private DubboHelper() {
    }

    // ------------------------------------------------------------------ advice entry points

    /**
     * Enter of {@code MonitorFilter.invoke}.
     *
     * @return the span or transaction started here (what the exit needs), or null when nothing was started
     */
    public static Object enter(LibraryHelper<DubboAdapter> adapters, Class<?> instrumentedType, Object invoker, Object invocation) {
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
            health.failure();
            return null;
        }
    }

    /** Exit of {@code MonitorFilter.invoke}; {@code scope} is what {@link #enter} returned. */
    public static void exit(LibraryHelper<DubboAdapter> adapters, Class<?> instrumentedType, Object scope, Object invoker,
                            Object invocation, Object result, Throwable thrown) {
        if (!(scope instanceof AbstractSpan)) {
            return;
        }
        AbstractSpan event = (AbstractSpan) scope;
        Tracer tracer = GlobalTracer.get(); // null when the agent stopped meanwhile: the event is then only ended
        Throwable failure = thrown;
        boolean handedOver = false;
        try {
            DubboAdapter adapter = adapters.get(instrumentedType);
            if (thrown == null && result != null && adapter.isPending(result)) {
                long timeoutNanos = (adapter.timeoutMillis(invoker, invocation) + DubboPlugin.settings.get().graceMillis) * 1_000_000L;
                AsyncWatchdog.PendingInvocation pending =
                        new AsyncWatchdog.PendingInvocation(event, adapter, invoker, invocation, timeoutNanos);
                handedOver = true; // from here on, the pending invocation ends the event exactly once
                if (event instanceof Transaction && tracer != null) {
                    tracer.deactivate(event); // open until the result arrives, but no longer active on this thread
                }
                AsyncWatchdog.watch(pending);
                try {
                    adapter.whenComplete(result, pending);
                } catch (Throwable t) {
                    health.failure();
                    pending.accept(result, null); // cannot wait for the result: end now rather than at the deadline
                }
                return;
            }
            // reading a failed result can throw (2.7's AsyncRpcResult.getAppResponse): the event is still ended below
            failure = thrown != null ? thrown : result == null ? null : adapter.failure(result);
            describe(event, adapter, invoker, invocation, unwrap(failure));
        } catch (Throwable t) {
            health.failure();
        } finally {
            if (!handedOver) {
                end(tracer, event, unwrap(failure));
            }
        }
    }

    // ------------------------------------------------------------------ completion

    /** Completion of an asynchronous invocation (called once, by {@link AsyncWatchdog.PendingInvocation}). */
    static void finishAsync(AbstractSpan event, DubboAdapter adapter, Object invoker, Object invocation, Object result, Throwable failure) {
        Throwable cause = unwrap(failure);
        try {
            if (cause == null && result != null) {
                cause = unwrap(adapter.failure(result));
            }
            describe(event, adapter, invoker, invocation, cause);
        } catch (Throwable t) {
            health.failure();
        } finally {
            SpanExit.endInactive(GlobalTracer.get(), event, cause);
        }
    }

    /** An asynchronous invocation whose result never came (called once, by the watchdog's scan). */
    static void expire(AbstractSpan event, DubboAdapter adapter, Object invoker, Object invocation) {
        try {
            event.setOutcome(Outcome.FAILURE);
            if (event instanceof Transaction) {
                ((Transaction) event).setResult(DubboNames.RESULT_TIMEOUT);
            } else {
                setDestination((Span) event, adapter, invoker, invocation);
            }
        } catch (Throwable t) {
            health.failure();
        } finally {
            SpanExit.endInactive(GlobalTracer.get(), event, null); // the failure set here stays the outcome
        }
    }

    /** What a completed invocation tells beyond its outcome: the provider's result, the address the consumer reached. */
    private static void describe(AbstractSpan event, DubboAdapter adapter, Object invoker, Object invocation, Throwable cause) {
        if (event instanceof Transaction) {
            ((Transaction) event).setResult(DubboNames.result(cause, cause != null && adapter.isTimeout(cause)));
        } else {
            setDestination((Span) event, adapter, invoker, invocation);
        }
    }

    /** Ends what {@link #enter} started: the provider's transaction is active on this thread, the consumer's span never is. */
    private static void end(Tracer tracer, AbstractSpan event, Throwable cause) {
        if (event instanceof Transaction) {
            SpanExit.end(tracer, event, cause);
        } else {
            SpanExit.endInactive(tracer, event, cause);
        }
    }

    // ------------------------------------------------------------------ start

    static Span startExitSpan(Tracer tracer, DubboAdapter adapter, Object invoker, Object invocation) {
        AbstractSpan parent = tracer.active();
        if (parent == null || adapter.isInJvm(invoker)) {
            return null;
        }
        Span span = tracer.createSpan(parent);
        try {
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
        } catch (Throwable t) {
            if (span != null) {
                span.end(); // the exit will not see it: never leave an event of ours open
            }
            throw t;
        }
        return span;
    }

    static Transaction startTransaction(Tracer tracer, DubboAdapter adapter, Object invoker, Object invocation) {
        if (tracer.active() != null) {
            return null; // a provider chain run by a traced caller's own thread belongs to that caller's trace
        }
        Transaction transaction = Propagation.startTransaction(tracer, invocation, adapter);
        try {
            transaction.setType(TRANSACTION_TYPE);
            String method = adapter.methodName(invocation);
            DubboNames.appendName(transaction.nameBuilder(), adapter.serviceInterface(invoker),
                    DubboNames.providerMethod(method, method != null && adapter.declaresMethod(invoker, method)));
        } catch (Throwable t) {
            transaction.end(); // the exit will not see it: never leave an event of ours open
            throw t;
        }
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
}
