package dev.apmagent.benchmark.trace;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.pool.ObjectPools;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The tracer's hot path end to end, as a plugin drives it for one request: start a transaction, activate it, three
 * child spans (create, activate, deactivate, end), deactivate and end the transaction. Every ended event is handed to a
 * {@link ReleasingReporter}, whose own thread releases it into the pool, so pools see the cross-thread pattern.
 *
 * <p>One operation is one transaction with three spans. Average time and SampleTime (percentiles) per pool strategy;
 * {@code -t N} sets the application threads. {@code -prof gc} reports B/op of ALL threads, including the releasing
 * thread; what the application thread alone allocates is checked by {@code HotPathBenchmarkTest} with the thread's
 * allocation counter. After each iteration the log says how many events the releasing thread released and how many
 * were dropped at a full ring and so released on the application thread: read a run only where drops are rare. With
 * more application threads than spare cores the releasing thread falls behind and the drop path dominates.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class HotPathBenchmark {

    /**
     * Ring slots: large enough that an application thread meets a full ring (and yields) at most once per 2048
     * requests, which is beyond p99.9. The tracer's pools hold 2 × max_queue_size objects per type, so
     * max_queue_size is set to half the ring: everything in flight fits in the pools.
     */
    static final int RING_CAPACITY = 8192;
    static final int SPANS = 3;

    @Param({ObjectPools.THREAD_LOCAL, ObjectPools.QUEUE, ObjectPools.NONE})
    public String strategy;

    ReleasingReporter reporter;
    Tracer tracer;

    @Setup(Level.Trial)
    public void setUp() {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.OBJECT_POOL.key(), strategy);
        options.put(CoreOptions.MAX_QUEUE_SIZE.key(), RING_CAPACITY / 2);
        reporter = new ReleasingReporter(RING_CAPACITY).start();
        tracer = new Tracer(Config.ofParsed(options), reporter);
    }

    private long releasedBefore;
    private long droppedBefore;

    @Setup(Level.Iteration)
    public void markIteration() {
        releasedBefore = reporter.released();
        droppedBefore = reporter.dropped();
    }

    /** Prints how many events of the iteration reached the releasing thread and how many were dropped at the ring. */
    @TearDown(Level.Iteration)
    public void printIteration() {
        System.out.println("ring: released on the reporter thread " + (reporter.released() - releasedBefore)
                + ", dropped (released on the application thread) " + (reporter.dropped() - droppedBefore));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        reporter.close();
        System.out.println("reporter: released " + reporter.released() + ", dropped at a full ring "
                + reporter.dropped() + ", pool created " + tracer.transactionPool().createdCount() + " transactions and "
                + tracer.spanPool().createdCount() + " spans");
    }

    /** One request: a transaction with three spans; returns the transaction id (never 0 when it was recorded). */
    @Benchmark
    public long transactionWithThreeSpans() {
        Tracer tracer = this.tracer;
        Transaction t = tracer.startRootTransaction();
        t.setName("GET /orders");
        t.setType("request");
        tracer.activate(t);
        for (int i = 0; i < SPANS; i++) {
            Span s = tracer.createSpan();
            if (s != null) {
                s.setName("SELECT FROM orders");
                s.setType("db", "postgresql", "query");
                s.setExit(true);
                tracer.activate(s);
                tracer.deactivate(s);
                s.end();
            }
        }
        long id = t.traceContext().id();
        tracer.deactivate(t);
        t.end();
        return id;
    }
}
