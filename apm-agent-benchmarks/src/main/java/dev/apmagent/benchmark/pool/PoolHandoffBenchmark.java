package dev.apmagent.benchmark.pool;

import java.util.concurrent.TimeUnit;

import dev.apmagent.pool.ObjectPool;
import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Pool strategies under the pattern the agent really has: application threads acquire and fill an object and hand it
 * to ONE other thread (the reporter), which reads it, resets it and releases it to the pool.
 *
 * <p>A JMH group: {@link #acquire} runs on the producer threads (the application), {@link #release} on one releasing
 * thread. The producer count is set per run with {@code -tg N,1} (run.sh does 1, 2, 8, 32, 64); the annotation's
 * default is 1 producer. JMH reports the group and, as secondary results, each method, so Throughput and SampleTime
 * runs give the acquire side and the release side separately; {@code -prof gc} adds allocation per operation (of all
 * threads, so a strategy that allocates on the releasing side shows too).
 *
 * <p>The hand-off is one bounded JCTools {@link SpscArrayQueue} of {@value #HANDOFF_CAPACITY} slots per producer,
 * which the releaser visits in turn. Not the reporter's MPSC ring, on purpose: the ring is measured by
 * {@code dev.apmagent.report.HandoffBenchmark}, and here the pool should be the only shared structure.
 *
 * <p>More runnable threads than cores (every run with 2+ producers on a 2-core machine) means the threads take turns in
 * scheduler time slices rather than running side by side. A first version that dropped on a full hand-off and spun on
 * an empty one measured mostly same-thread recycling that way: a producer filled its queue in microseconds and then
 * dropped (and recycled locally) for the rest of its slice, while the releaser spun on empty queues for the rest of
 * its own. So the threads cooperate like the real ones, which have other work to do: a producer that finds its queue
 * full yields once and retries, and only then drops (resets and releases the object itself, as the reporter does
 * when its ring is full); the releaser yields when every queue is empty. A yield shows in that operation's sample, at
 * most once per {@value #HANDOFF_CAPACITY} acquisitions of a producer.
 *
 * <p>The auxiliary counters ({@code handedOff}, {@code dropped}, {@code yields}, {@code released}, {@code emptyPolls};
 * totals per iteration) say how much of a run followed the cross-thread path; read the pool comparison where drops are
 * low. The pool {@code capacity} defaults to more objects than can be in flight ({@value #HANDOFF_CAPACITY} per
 * producer), so that the comparison is about contention and not about the pool's ceiling; pass
 * {@code -p capacity=1024} for the tracer's default ceiling.
 *
 * <p>The release method takes at most one object per call so that its SampleTime percentiles are per release; the
 * empty polls (and their yields) are samples too, so where the releaser is faster than the producers its percentiles
 * mix them in.
 */
@State(Scope.Group)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PoolHandoffBenchmark {

    static final int HANDOFF_CAPACITY = 1024;

    @Param({BenchmarkPools.THREAD_LOCAL, BenchmarkPools.QUEUE, BenchmarkPools.NONE, BenchmarkPools.MPSC_LINKED,
            BenchmarkPools.MPSC_CHUNKED})
    public String strategy;

    /** Shared-tier capacity (per thread for the return-to-origin pools); the tracer uses 2 × max_queue_size = 1024. */
    @Param("65536")
    public int capacity;

    ObjectPool<PooledEvent> pool;
    /** One hand-off queue per producer, registered by {@link Producer#register}; read by the releaser only. */
    volatile SpscArrayQueue<PooledEvent>[] handoffs;
    /** Releaser only: the queue it polls next. */
    int next;

    /** Exactly one releasing thread per group (each hand-off queue is single-consumer): the others are producers. */
    @Setup(Level.Trial)
    public void setUp(ThreadParams threads) {
        setUp(Math.max(1, threads.getGroupThreadCount() - 1));
    }

    /** Creates the pool and room for {@code producers} hand-off queues (tests call this directly). */
    @SuppressWarnings("unchecked")
    void setUp(int producers) {
        pool = BenchmarkPools.create(strategy, capacity);
        handoffs = new SpscArrayQueue[producers];
    }

    /** What each thread did in the iteration; JMH sums the threads (totals per iteration, not rates). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counters {
        public long handedOff;
        public long dropped;
        public long yields;
        public long released;
        public long emptyPolls;

        @Setup(Level.Iteration)
        public void clear() {
            handedOff = 0;
            dropped = 0;
            yields = 0;
            released = 0;
            emptyPolls = 0;
        }
    }

    /** A producer thread's hand-off queue and sequence. */
    @State(Scope.Thread)
    public static class Producer {
        SpscArrayQueue<PooledEvent> handoff;
        long sequence;

        @Setup(Level.Trial)
        public void register(PoolHandoffBenchmark group, ThreadParams threads) {
            register(group, threads.getSubgroupThreadIndex());
        }

        /** Creates this producer's queue as number {@code index} of the group (tests call this directly). */
        void register(PoolHandoffBenchmark group, int index) {
            handoff = new SpscArrayQueue<PooledEvent>(HANDOFF_CAPACITY);
            synchronized (group) {
                SpscArrayQueue<PooledEvent>[] queues = group.handoffs.clone();
                queues[index] = handoff;
                group.handoffs = queues;
            }
        }
    }

    /**
     * Application thread: acquire, fill, hand off; when the hand-off is full, yield once and retry, then release here
     * and count a drop.
     */
    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public long acquire(Producer producer, Counters counters) {
        PooledEvent event = pool.acquire();
        long id = ++producer.sequence;
        event.fill(id);
        SpscArrayQueue<PooledEvent> handoff = producer.handoff;
        if (handoff.offer(event)) {
            counters.handedOff++;
            return id;
        }
        counters.yields++;
        Thread.yield();
        if (handoff.offer(event)) {
            counters.handedOff++;
        } else {
            event.reset();
            pool.release(event);
            counters.dropped++;
        }
        return id;
    }

    /** Releasing thread: take one object, read it, reset it and release it; 0 when every hand-off was empty. */
    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public long release(Counters counters) {
        SpscArrayQueue<PooledEvent>[] queues = handoffs;
        int n = queues.length;
        PooledEvent event = null;
        for (int i = 0; i < n && event == null; i++) {
            int q = next;
            next = q + 1 == n ? 0 : q + 1;
            SpscArrayQueue<PooledEvent> queue = queues[q];
            if (queue != null) {
                event = queue.relaxedPoll();
            }
        }
        if (event == null) {
            counters.emptyPolls++;
            Thread.yield();
            return 0;
        }
        long read = event.consume();
        event.reset();
        pool.release(event);
        counters.released++;
        return read;
    }

    /** Releases what a run left in the hand-off, so iterations start alike. */
    @TearDown(Level.Iteration)
    public void drainHandoff() {
        for (SpscArrayQueue<PooledEvent> queue : handoffs) {
            PooledEvent event;
            while (queue != null && (event = queue.relaxedPoll()) != null) {
                event.reset();
                pool.release(event);
            }
        }
    }
}
