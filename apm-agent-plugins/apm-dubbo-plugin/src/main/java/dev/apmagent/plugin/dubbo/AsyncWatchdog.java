package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.AgentScheduler;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.AbstractSpan;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.function.BiConsumer;

/**
 * The backstop for asynchronous invocations whose result never arrives: a fixed table of pending invocations that the
 * agent's scheduler thread ({@link AgentScheduler}) scans every {@value #TICK_MILLIS} ms, ending those past their
 * deadline. Normally Dubbo completes every consumer future itself (on response or on its own timeout), so the
 * watchdog only matters for a provider whose {@code CompletableFuture} or {@code AsyncContext} is never completed, or
 * a protocol without timeouts.
 *
 * <p>Application threads only claim a slot with one CAS (probing at most {@value #PROBES} slots from a rotating
 * start); when none is free the invocation is counted as unwatched and left to Dubbo's own completion. The first
 * asynchronous invocation also hands the scan to the scheduler, once (a flag, then a lock-free queue): no thread is
 * started from the application's thread, so none inherits its thread group, context class loader or inheritable
 * thread locals. No lock, no blocking on the application's side; memory is bounded by the table.
 */
final class AsyncWatchdog {

    static final int CAPACITY = 8192;
    static final int PROBES = 8;
    static final long TICK_MILLIS = 100;

    private static final PluginHealth health = PluginHealth.of(DubboPlugin.NAME);
    /** Asynchronous invocations that never completed and were ended after their deadline. */
    private static final PluginHealth.Counter expired = health.counter("async_expired");
    /** Asynchronous invocations left to Dubbo's own completion because the table was full. */
    private static final PluginHealth.Counter unwatched = health.counter("async_unwatched");

    private static final AtomicReferenceArray<PendingInvocation> slots = new AtomicReferenceArray<PendingInvocation>(CAPACITY);
    private static final AtomicInteger cursor = new AtomicInteger();
    private static final AtomicBoolean scheduled = new AtomicBoolean();
    private static final Runnable periodicScan = new Runnable() {
        @Override
        public void run() {
            scan(System.nanoTime());
        }
    };

    private AsyncWatchdog() {
    }

    /** Watches {@code pending} until it completes or its deadline passes; false when the table is full (counted). */
    static boolean watch(PendingInvocation pending) {
        if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
            AgentScheduler.schedule(periodicScan, TICK_MILLIS, health);
        }
        int start = cursor.getAndIncrement();
        for (int i = 0; i < PROBES; i++) {
            int index = (start + i) & (CAPACITY - 1);
            if (slots.get(index) == null && slots.compareAndSet(index, null, pending)) {
                return true;
            }
        }
        unwatched.increment();
        return false;
    }

    /** Number of watched invocations (tests and diagnostics; scans the table). */
    static int watched() {
        int n = 0;
        for (int i = 0; i < CAPACITY; i++) {
            if (slots.get(i) != null) {
                n++;
            }
        }
        return n;
    }

    /** One scan: forgets completed invocations, ends expired ones. Runs on the scheduler thread (and in tests). */
    static void scan(long nowNanos) {
        for (int i = 0; i < CAPACITY; i++) {
            PendingInvocation p = slots.get(i);
            if (p == null) {
                continue;
            }
            if (p.isDone()) {
                slots.compareAndSet(i, p, null);
            } else if (nowNanos - p.deadlineNanos >= 0) {
                slots.compareAndSet(i, p, null);
                p.expire();
            }
        }
    }

    /**
     * An asynchronous invocation whose span (consumer) or transaction (provider) ends when its result arrives, on the
     * thread that completes it, or when the scan finds it past its deadline; whichever comes first wins, once. Handed
     * to Dubbo as the completion callback: it holds agent objects only in its own fields, never in Dubbo's context or
     * attachments.
     */
    static final class PendingInvocation implements BiConsumer<Object, Throwable> {

        /** Whichever comes first, the result or the scan, takes the event and ends it; the other finds none. */
        private static final AtomicReferenceFieldUpdater<PendingInvocation, AbstractSpan> EVENT =
                AtomicReferenceFieldUpdater.newUpdater(PendingInvocation.class, AbstractSpan.class, "event");
        private volatile AbstractSpan event;
        private final long deadlineNanos;
        private final DubboAdapter adapter;
        private final Object invoker;
        private final Object invocation;

        /** @param timeoutNanos from now until the scan ends the event if no result came */
        PendingInvocation(AbstractSpan event, DubboAdapter adapter, Object invoker, Object invocation, long timeoutNanos) {
            this.deadlineNanos = System.nanoTime() + timeoutNanos;
            this.event = event;
            this.adapter = adapter;
            this.invoker = invoker;
            this.invocation = invocation;
        }

        boolean isDone() {
            return event == null;
        }

        /** Dubbo's completion: the result, or the failure of the invocation. */
        @Override
        public void accept(Object result, Throwable failure) {
            AbstractSpan taken = EVENT.getAndSet(this, null);
            if (taken != null) {
                DubboHelper.finishAsync(taken, adapter, invoker, invocation, result, failure);
            }
        }

        /** The scan's verdict: the result never came. */
        void expire() {
            AbstractSpan taken = EVENT.getAndSet(this, null);
            if (taken != null) {
                expired.increment();
                DubboHelper.expire(taken, adapter, invoker, invocation);
            }
        }
    }
}
