package dev.apmagent.report;

import org.jctools.queues.atomic.MpscAtomicArrayQueue;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The bounded hand-off from application threads (many producers) to the reporter thread (one consumer): a
 * pre-allocated ring of {@code capacity} (a power of two) slots holding event references.
 *
 * <h2>Claim strategy: one CAS, one retry, then drop</h2>
 * A producer claims a slot with a single compare-and-swap of the producer index, exactly as JCTools'
 * {@code MpscAtomicArrayQueue.offer} does (we use its {@code failFastOffer}, which does not loop). A failed CAS means a
 * concurrent producer won that slot and made progress, so the ring as a whole is not stuck; we retry <b>once</b> and
 * then drop and count. Every {@link #offer} therefore finishes in at most two CAS attempts, no lock, no unbounded loop.
 * <p>We chose this over an XADD claim ({@code getAndIncrement}) with a Disruptor-style availability array because an
 * XADD claim cannot be undone: a producer that finds its slot still occupied from the previous lap (ring full) owns a
 * ticket the consumer will wait for, so it has to publish a "skipped" marker into a slot whose previous lap is not
 * consumed yet. That needs per-slot lap-and-skip state changed by CAS from both sides, and when more producers than
 * slots overshoot, tickets run several laps ahead and the consumer has to walk through all the abandoned ones. The CAS
 * claim never over-claims (the capacity check and the claim are the same CAS), so "full" needs no repair. Its cost,
 * losing an event when a producer loses the race twice in a row while the ring has room, needs two other producers to
 * claim in the nanoseconds between this producer's read and its CAS, twice; it is counted separately in
 * {@link #contendedDrops()} (and reported as a queue-full drop) so that it is visible if it ever matters.
 * The contention test with 8 producers checks that nothing is lost or duplicated.
 *
 * <h2>Waking the consumer</h2>
 * The consumer parks for 4, 4, 8, 16 ms after the ring runs empty, then announces that it goes to sleep with a
 * volatile flag, re-checks the ring, and parks until its next timer (bounded by the caller). A producer reads that flag
 * after a successful offer (a plain load on x86); only when it is set does the first producer to clear it (one CAS, no
 * loop) call {@link LockSupport#unpark}, which happens once per idle-to-busy transition, not per event. Idle CPU is
 * therefore close to zero and no event waits for a long sleep to end.
 * <p>Why 4 ms: under load the consumer wakes once per first rung, and every wake is two context switches on a core
 * the application shares (a few microseconds each on a VM, more than serializing an event). The first rung was 0.1 ms
 * (10,000 wakes a second with nine events each on the overhead harness), then 1 ms (1,000 wakes a second: about
 * 0.8 µs per request at 10,000 requests a second, where the application core is a third busy); 4 ms batches about
 * 160 events at 40,000 events a second, which the default 8192 slots hold fifty times over. The slots are sized
 * for something else: a reporter thread that the scheduler keeps waiting. With the application not pinned (16 busy
 * Tomcat threads and the agent's threads on 2 cores), 512 slots dropped about 5% of the events as queue_full (9% in
 * the run); the reporter needs only about 5% of a core, but waits tens of milliseconds for it in one go. 8192
 * dropped none (docs/benchmarks.md). The rungs add up to 32 ms, so an application with a request every few
 * milliseconds keeps the consumer polling and never pays the unpark.
 */
public final class HandoffRing<E> {

    private static final long[] SHORT_PARKS_NANOS = {4_000_000L, 4_000_000L, 8_000_000L, 16_000_000L};

    private static final AtomicIntegerFieldUpdater<HandoffRing> SLEEPING =
            AtomicIntegerFieldUpdater.newUpdater(HandoffRing.class, "sleeping");

    /**
     * JCTools' Unsafe-free variant (field updaters and AtomicReferenceArray): the sun.misc.Unsafe one makes JDK 24+ print
     * a four-line "terminally deprecated method in sun.misc.Unsafe" warning on the application's stderr (JEP 498) as
     * soon as the agent starts reporting (MisbehavingCodeIT compares stderr with and without the agent on JDK 25).
     */
    private final MpscAtomicArrayQueue<E> queue;
    private final LongAdder contendedDrops = new LongAdder();
    private volatile int sleeping;
    private volatile Thread consumer;
    private int idleRounds;

    public HandoffRing(int requestedCapacity) {
        this.queue = new MpscAtomicArrayQueue<E>(roundToPowerOfTwo(requestedCapacity));
    }

    static int roundToPowerOfTwo(int n) {
        if (n <= 2) {
            return 2;
        }
        int p = Integer.highestOneBit(n - 1) << 1;
        return p <= 0 ? 1 << 30 : p;
    }

    public int capacity() {
        return queue.capacity();
    }

    /** Number of events in the ring right now (approximate while producers race). */
    public int size() {
        return queue.size();
    }

    /**
     * Offers an event; never blocks, spins or parks. Returns false when the ring is full (or, rarely, when this
     * producer lost the claim race twice); the caller then drops and recycles the event.
     */
    public boolean offer(E event) {
        int r = queue.failFastOffer(event);
        if (r < 0) {
            // a concurrent producer won the CAS and made progress; retry exactly once
            r = queue.failFastOffer(event);
            if (r < 0) {
                contendedDrops.increment();
            }
        }
        if (r != 0) {
            return false;
        }
        if (sleeping != 0 && SLEEPING.compareAndSet(this, 1, 0)) {
            Thread t = consumer;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
        return true;
    }

    /** Consumer only: the next event or null when the ring is empty (or the next slot is still being written). */
    public E poll() {
        return queue.relaxedPoll();
    }

    /** Drops that happened because a producer lost both claim attempts while the ring had room. */
    public long contendedDrops() {
        return contendedDrops.sum();
    }

    /**
     * Consumer only, after a poll found nothing: waits for producers with the short-park ladder, then announces sleep
     * and parks up to {@code maxSleepNanos} (a timer deadline). Returns early when an event arrives or on
     * {@link #wakeConsumer()}.
     */
    public void awaitEvents(long maxSleepNanos) {
        if (maxSleepNanos <= 0) {
            return;
        }
        if (consumer != Thread.currentThread()) {
            consumer = Thread.currentThread();
        }
        if (idleRounds < SHORT_PARKS_NANOS.length) {
            LockSupport.parkNanos(this, Math.min(SHORT_PARKS_NANOS[idleRounds++], maxSleepNanos));
            return;
        }
        sleeping = 1;
        if (!queue.isEmpty()) {
            sleeping = 0;
            return;
        }
        LockSupport.parkNanos(this, maxSleepNanos);
        sleeping = 0;
    }

    /** Consumer only: resets the short-park ladder after it found work. */
    public void onWork() {
        idleRounds = 0;
    }

    /** Any thread (shutdown, flush): wakes the consumer if it is parked. */
    public void wakeConsumer() {
        sleeping = 0;
        Thread t = consumer;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Whether the consumer has announced a long sleep (for tests). */
    boolean isConsumerSleeping() {
        return sleeping != 0;
    }
}
