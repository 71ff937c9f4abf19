package dev.apmagent.benchmark.report;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.report.ApmReporter;
import dev.apmagent.report.ReporterOptions;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The reporter end to end: the real {@link ApmReporter} (hand-off ring, reporter thread with the serializers, byte
 * ring, sender thread with deflate) delivering to a {@link LoopbackSink} that discards. One operation reports
 * {@value #REQUESTS_PER_OP} transactions with {@value #SPANS} spans each ({@value #EVENTS_PER_OP} events) from the
 * benchmark thread and then flushes, which ends the HTTP request and waits for the sink's reply; the hand-off is sized
 * so that nothing is dropped. The {@code events} counter is the delivered events per second, the reporter's
 * sustainable throughput; {@code dropped} must stay 0 for the run to count. {@code compression} true forces deflate
 * even on loopback (what a remote server gets), false is what the agent does for a loopback server by default.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(1)
public class ReporterThroughputBenchmark {

    static final int REQUESTS_PER_OP = 256;
    static final int SPANS = 3;
    static final int EVENTS_PER_OP = REQUESTS_PER_OP * (1 + SPANS);

    @Param({"true", "false"})
    public String compression;

    LoopbackSink sink;
    ApmReporter reporter;
    Tracer tracer;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        sink = new LoopbackSink();
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.SERVICE_NAME.key(), "benchmark");
        options.put(CoreOptions.SERVER_URL.key(), sink.url());
        options.put(CoreOptions.MAX_QUEUE_SIZE.key(), 2 * EVENTS_PER_OP);
        options.put(ReporterOptions.COMPRESS_REQUESTS.key(), compression);
        options.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
        Config config = Config.ofParsed(options);
        reporter = new ApmReporter(config);
        tracer = new Tracer(config, reporter);
        reporter.start();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        reporter.close(10_000);
        sink.close();
        System.out.println("reporter: " + reporter.stats() + "; sink: " + sink.requests() + " requests, "
                + sink.bodyBytes() + " body bytes, " + sink.failures() + " failures");
    }

    /** Delivered and dropped events, reported per second (JMH normalizes OPERATIONS counters to time). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Delivery {
        public long events;
        public long dropped;
    }

    /** Reports {@value #EVENTS_PER_OP} events and waits until they are delivered; returns how many were. */
    @Benchmark
    public long reportAndFlush(Delivery delivery) {
        long deliveredBefore = reporter.stats().delivered();
        long droppedBefore = reporter.stats().dropped();
        Tracer tracer = this.tracer;
        for (int i = 0; i < REQUESTS_PER_OP; i++) {
            Transaction t = tracer.startRootTransaction();
            t.setName("GET /orders");
            t.setType("request");
            t.setResult("HTTP 2xx");
            tracer.activate(t);
            for (int j = 0; j < SPANS; j++) {
                Span s = tracer.createSpan();
                if (s != null) {
                    s.setName("SELECT FROM orders");
                    s.setType("db", "postgresql", "query");
                    s.setExit(true);
                    s.context().db().setStatement("SELECT * FROM orders WHERE id = ?");
                    s.end();
                }
            }
            tracer.deactivate(t);
            t.end();
        }
        if (!reporter.flush(30_000)) {
            throw new IllegalStateException("flush timed out: " + reporter.stats());
        }
        long delivered = reporter.stats().delivered() - deliveredBefore;
        delivery.events += delivered;
        delivery.dropped += reporter.stats().dropped() - droppedBefore;
        return delivered;
    }
}
