package dev.apmagent.report;

import java.util.concurrent.TimeUnit;

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
 * The hand-off from application threads to the reporter under contention: N producers offer (run.sh sets
 * {@code -tg N,1} for 1, 2, 8 and 32 producers), one consumer polls. Compares the reporter's {@link HandoffRing}
 * (one CAS, one retry, then drop; see its javadoc) with a plain JCTools {@link MpscArrayQueue#offer}, which retries
 * its CAS until it wins or the queue is full. The offer method's SampleTime percentiles are what an application thread
 * pays; the auxiliary counters (per iteration) show how many offers were dropped because the ring was full.
 */
@State(Scope.Group)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HandoffBenchmark {

    static final Object EVENT = new Object();

    @Param({"handoff_ring", "mpsc_array_queue"})
    public String ring;

    /** The default max_queue_size. */
    @Param("8192")
    public int capacity;

    HandoffRing<Object> handoffRing;
    MpscArrayQueue<Object> queue;

    @Setup(Level.Trial)
    public void setUp() {
        if ("handoff_ring".equals(ring)) {
            handoffRing = new HandoffRing<Object>(capacity);
        } else if ("mpsc_array_queue".equals(ring)) {
            queue = new MpscArrayQueue<Object>(capacity);
        } else {
            throw new IllegalArgumentException("ring must be handoff_ring or mpsc_array_queue: " + ring);
        }
    }

    /** Per thread and iteration; JMH sums the threads. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counters {
        public long offered;
        public long dropped;
        public long polled;
        public long emptyPolls;

        @Setup(Level.Iteration)
        public void clear() {
            offered = 0;
            dropped = 0;
            polled = 0;
            emptyPolls = 0;
        }
    }

    /** Application thread: hand one event to the reporter; true when it was accepted. */
    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public boolean offer(Counters counters) {
        boolean accepted = handoffRing != null ? handoffRing.offer(EVENT) : queue.offer(EVENT);
        if (accepted) {
            counters.offered++;
        } else {
            counters.dropped++;
        }
        return accepted;
    }

    /** Reporter thread: take one event, or return null at once when there is none. */
    @Benchmark
    @Group("handoff")
    @GroupThreads(1)
    public Object poll(Counters counters) {
        Object event = handoffRing != null ? handoffRing.poll() : queue.relaxedPoll();
        if (event == null) {
            counters.emptyPolls++;
            Thread.onSpinWait();
        } else {
            counters.polled++;
        }
        return event;
    }

    @TearDown(Level.Iteration)
    public void drain() {
        if (handoffRing != null) {
            while (handoffRing.poll() != null) {
                // empty the ring so iterations start alike
            }
        } else {
            queue.clear();
        }
    }
}
