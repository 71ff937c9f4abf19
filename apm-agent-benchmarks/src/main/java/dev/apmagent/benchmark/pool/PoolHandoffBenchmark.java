package dev.apmagent.benchmark.pool;

import java.util.concurrent.TimeUnit;

import dev.apmagent.pool.ObjectPool;
import org.jctools.queues.MpscArrayQueue;
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
 * <p>The hand-off is a bounded JCTools {@link MpscArrayQueue} of {@value #HANDOFF_CAPACITY} slots, like the reporter's
 * ring. When it is full the producer resets and releases the object itself and counts a drop, which is what the
 * reporter does when its ring is full. The auxiliary counters ({@code handedOff}, {@code dropped}, {@code released},
 * {@code emptyPolls}, per second) say how much of a run followed the cross-thread path: with more runnable threads than
 * cores the single releaser gets a small share of the CPU and the drop ratio rises; read the pool comparison where
 * drops are low, and note that a dropped object is recycled on the producer's own thread.
 *
 * <p>The release method takes one object per call so that its SampleTime percentiles are per release; when the
 * hand-off is empty it returns at once (counted in {@code emptyPolls}), so at one producer, where the releaser is
 * faster than the producer, the release percentiles mix in empty polls.
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

    /** The tracer's pool capacity at the default max_queue_size (2 × 512). */
    @Param("1024")
    public int capacity;

    ObjectPool<PooledEvent> pool;
    MpscArrayQueue<PooledEvent> handoff;

    @Setup(Level.Trial)
    public void setUp() {
        pool = BenchmarkPools.create(strategy, capacity);
        handoff = new MpscArrayQueue<PooledEvent>(HANDOFF_CAPACITY);
    }

    /** What each thread did in the iteration; JMH sums the threads and reports each field per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counters {
        public long handedOff;
        public long dropped;
        public long released;
        public long emptyPolls;
        long sequence;

        @Setup(Level.Iteration)
        public void clear() {
            handedOff = 0;
            dropped = 0;
            released = 0;
            emptyPolls = 0;
        }
    }

    /** Application thread: acquire, fill, hand off (or, when the hand-off is full, release here and count a drop). */
    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public long acquire(Counters counters) {
        PooledEvent event = pool.acquire();
        long id = ++counters.sequence;
        event.fill(id);
        if (handoff.offer(event)) {
            counters.handedOff++;
        } else {
            event.reset();
            pool.release(event);
            counters.dropped++;
        }
        return id;
    }

    /** Releasing thread: take one object, read it, reset it and release it; 0 when the hand-off was empty. */
    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public long release(Counters counters) {
        PooledEvent event = handoff.relaxedPoll();
        if (event == null) {
            counters.emptyPolls++;
            Thread.onSpinWait();
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
        PooledEvent event;
        while ((event = handoff.relaxedPoll()) != null) {
            event.reset();
            pool.release(event);
        }
    }
}
