package dev.apmagent.plugin;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The backstop for {@link PendingSpan}s whose end never comes (a future nobody completes, a connection whose response
 * is never read): a fixed table that the agent's scheduler thread ({@link AgentScheduler}) scans every
 * {@value #TICK_MILLIS} ms, ending those past their deadline. Shared by every plugin.
 *
 * <p>The application's thread only claims a slot with one CAS (probing at most {@value #PROBES} slots from a rotating
 * start); with none free, the span is not watched (the caller counts it) and ends only when its request does. The
 * first {@link #watch} also hands the scan to the scheduler, once. No lock, no thread started from the application's
 * thread; memory is bounded by the table ({@value #CAPACITY} slots).
 */
public final class PendingSpans {

    static final int CAPACITY = 8192;
    static final int PROBES = 8;
    static final long TICK_MILLIS = 100;

    private static final PluginHealth health = PluginHealth.of("pending-spans");
    /** Pending spans ended by the scan because their deadline passed. */
    private static final PluginHealth.Counter expired = health.counter("expired");

    private static final AtomicReferenceArray<PendingSpan> slots = new AtomicReferenceArray<PendingSpan>(CAPACITY);
    private static final AtomicInteger cursor = new AtomicInteger();
    private static final AtomicBoolean scheduled = new AtomicBoolean();
    private static final Runnable periodicScan = new Runnable() {
        @Override
        public void run() {
            scan(System.nanoTime());
        }
    };

    private PendingSpans() {
    }

    /** Watches {@code pending} until it is taken or its deadline passes; false when the table is full. */
    public static boolean watch(PendingSpan pending) {
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
        return false;
    }

    /** Number of watched spans (tests and diagnostics; scans the table). */
    public static int watched() {
        int n = 0;
        for (int i = 0; i < CAPACITY; i++) {
            if (slots.get(i) != null) {
                n++;
            }
        }
        return n;
    }

    /**
     * One scan: forgets taken spans, ends those past their deadline at {@code nowNanos}. Runs on the scheduler thread;
     * public for tests, which pass a time in the future instead of waiting.
     */
    public static void scan(long nowNanos) {
        for (int i = 0; i < CAPACITY; i++) {
            PendingSpan p = slots.get(i);
            if (p == null) {
                continue;
            }
            if (p.isDone()) {
                slots.compareAndSet(i, p, null);
            } else if (nowNanos - p.deadlineNanos() >= 0) {
                slots.compareAndSet(i, p, null);
                try {
                    if (p.expire()) {
                        expired.increment();
                    }
                } catch (Throwable t) {
                    health.failure();
                }
            }
        }
    }
}
