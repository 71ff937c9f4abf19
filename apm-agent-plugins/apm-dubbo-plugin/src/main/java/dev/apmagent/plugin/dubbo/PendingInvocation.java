package dev.apmagent.plugin.dubbo;

import dev.apmagent.trace.AbstractSpan;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BiConsumer;

/**
 * An asynchronous invocation whose span (consumer) or transaction (provider) ends when its result arrives, on the
 * thread that completes it, or when {@link AsyncWatchdog} finds it past its deadline; whichever comes first wins, once.
 * Handed to Dubbo as the completion callback: it holds agent objects only in its own fields, never in Dubbo's
 * context or attachments.
 */
final class PendingInvocation implements BiConsumer<Object, Throwable> {

    private static final AtomicIntegerFieldUpdater<PendingInvocation> DONE =
            AtomicIntegerFieldUpdater.newUpdater(PendingInvocation.class, "done");

    private final AbstractSpan event;
    private final DubboAdapter adapter;
    private final Object invoker;
    private final Object invocation;
    private final long deadlineNanos;
    private volatile int done;

    PendingInvocation(AbstractSpan event, DubboAdapter adapter, Object invoker, Object invocation, long deadlineNanos) {
        this.event = event;
        this.adapter = adapter;
        this.invoker = invoker;
        this.invocation = invocation;
        this.deadlineNanos = deadlineNanos;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    boolean isDone() {
        return done != 0;
    }

    /** Dubbo's completion: the result, or the failure of the invocation. */
    @Override
    public void accept(Object result, Throwable failure) {
        if (!DONE.compareAndSet(this, 0, 1)) {
            return;
        }
        DubboTracing.finishAsync(event, adapter, invoker, invocation, result, failure);
    }

    /** The watchdog's verdict: the result never came. */
    void expire() {
        if (!DONE.compareAndSet(this, 0, 1)) {
            return;
        }
        DubboPluginHealth.countAsyncExpired();
        DubboTracing.expire(event, adapter, invoker, invocation);
    }
}
