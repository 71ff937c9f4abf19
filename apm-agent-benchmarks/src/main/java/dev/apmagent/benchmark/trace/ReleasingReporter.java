package dev.apmagent.benchmark.trace;

import java.util.concurrent.atomic.AtomicLong;

import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;

/**
 * A {@link Reporter} that does what the real one does to the pools and nothing else: the application thread offers
 * the ended event to a bounded MPSC ring, and one daemon thread drains the ring and releases each event's reference,
 * which recycles it into the tracer's pool on that thread. No serialization, so the hot-path benchmark measures the
 * tracer, the pools and the hand-off.
 *
 * <p>When the ring is full the application thread yields once and retries, and only then drops the event and
 * releases it at once, as the real reporter does. The yield stands for the application's own work. With more runnable
 * threads than cores the threads take turns in time slices. Without the yield, an application thread would fill the
 * ring in a millisecond and then drop for the rest of its slice, and the benchmark would measure the drop path.
 *
 * <p>The draining thread spins briefly and then yields while the ring stays empty; it never parks. A parked thread
 * on a busy machine may wait milliseconds to be scheduled again, and the ring then overflows and the benchmark
 * measures the drop path. Yielding keeps the thread runnable, so it keeps up whenever it gets a share of a core,
 * and it gives the core away whenever an application thread wants it. This is a best-case reporter. The real
 * one parks, and how fast it wakes up is measured with its ring ({@code HandoffRing}).
 */
public final class ReleasingReporter implements Reporter, AutoCloseable {

    private static final MessagePassingQueue.Consumer<Object> RELEASE = new MessagePassingQueue.Consumer<Object>() {
        @Override
        public void accept(Object event) {
            release(event);
        }
    };

    private final MpscArrayQueue<Object> ring;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong released = new AtomicLong();
    private final Thread releaser;
    private volatile boolean running = true;

    /** @param capacity ring slots (rounded up to a power of two) */
    public ReleasingReporter(int capacity) {
        ring = new MpscArrayQueue<Object>(capacity);
        releaser = new Thread(this::drainLoop, "benchmark-releaser");
        releaser.setDaemon(true);
    }

    public ReleasingReporter start() {
        releaser.start();
        return this;
    }

    private void drainLoop() {
        int idle = 0;
        while (running) {
            int n = ring.drain(RELEASE, 256);
            if (n > 0) {
                released.addAndGet(n);
                idle = 0;
            } else if (++idle < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        released.addAndGet(ring.drain(RELEASE));
    }

    private static void release(Object event) {
        if (event instanceof Transaction) {
            ((Transaction) event).decrementReferences();
        } else if (event instanceof Span) {
            ((Span) event).decrementReferences();
        } else {
            ((ErrorEvent) event).decrementReferences();
        }
    }

    private boolean offer(Object event) {
        if (ring.offer(event)) {
            return true;
        }
        Thread.yield();
        if (ring.offer(event)) {
            return true;
        }
        dropped.incrementAndGet();
        release(event);
        return false;
    }

    @Override
    public boolean report(Transaction transaction) {
        return offer(transaction);
    }

    @Override
    public boolean report(Span span) {
        return offer(span);
    }

    @Override
    public boolean report(ErrorEvent error) {
        return offer(error);
    }

    /** Events dropped because the ring was full (released on the application thread). */
    public long dropped() {
        return dropped.get();
    }

    /** Events released by the draining thread. */
    public long released() {
        return released.get();
    }

    /** Waits until the ring is empty (the draining thread may still be releasing the last batch it took). */
    public void awaitDrained() {
        while (!ring.isEmpty()) {
            Thread.onSpinWait();
        }
    }

    /** Waits until {@code count} events in all were released by the draining thread or dropped. */
    public void awaitReleased(long count) {
        while (released.get() + dropped.get() < count) {
            Thread.onSpinWait();
        }
    }

    /** Stops the draining thread after it released what is left. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        releaser.join(10_000);
    }
}
