package dev.apmagent.benchmark.okhttp;

import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Runs the benchmark's set-up and operation once per mode without JMH and checks the answer, what the server got and
 * what reached the reporter. (All modes share this JVM; only JMH's fork per mode gives a {@code none} without any
 * instrumentation.)
 */
class OkHttpCallBenchmarkTest {

    private static final int CALLS = 20;

    @Test
    void withoutTheAgentTheCallAnswersAndCarriesNoTraceContext() throws Exception {
        OkHttpCallBenchmark benchmark = new OkHttpCallBenchmark();
        benchmark.mode = "none";
        callAndStop(benchmark);
        assertNull(benchmark.lastTraceparent);
        assertNull(benchmark.reporter, "no tracer, no reporter");
    }

    @Test
    void idleCallIsNotTraced() throws Exception {
        Recorder recorder = new Recorder();
        OkHttpCallBenchmark benchmark = recording("idle", recorder);
        callAndStop(benchmark);
        assertNull(benchmark.lastTraceparent, "nothing active, no header");
        assertEquals(0, recorder.spans.size());
    }

    @Test
    void tracedCallIsAnExitSpanWhoseTraceparentReachedTheServer() throws Exception {
        Recorder recorder = new Recorder();
        OkHttpCallBenchmark benchmark = recording("agent", recorder);
        callAndStop(benchmark);
        assertEquals(CALLS, recorder.spans.size(), "one span per call");
        assertEquals(CALLS, recorder.transactions.size(), "one caller transaction per call");
        assertEquals("GET 127.0.0.1", recorder.spans.get(0));
        assertNotNull(benchmark.lastTraceparent, "the server got the trace context");
        assertEquals(0, PluginHealth.of("okhttp").failures(), "failures inside the plugin");
    }

    private static void callAndStop(OkHttpCallBenchmark benchmark) throws Exception {
        benchmark.setUp();
        try {
            for (int i = 0; i < CALLS; i++) {
                assertEquals(OkHttpCallBenchmark.ANSWER, benchmark.call());
            }
        } finally {
            benchmark.tearDown();
            benchmark.uninstall();
        }
    }

    private static OkHttpCallBenchmark recording(String mode, Recorder recorder) {
        OkHttpCallBenchmark benchmark = new OkHttpCallBenchmark() {
            @Override
            Reporter reportTo(ReleasingReporter releasing) {
                recorder.delegate = releasing;
                return recorder;
            }
        };
        benchmark.mode = mode;
        return benchmark;
    }

    /** Copies each event's name on the thread that ends it (synchronous calls: the test's), then passes it on. */
    private static final class Recorder implements Reporter {
        final List<String> spans = new CopyOnWriteArrayList<>();
        final List<String> transactions = new CopyOnWriteArrayList<>();
        volatile ReleasingReporter delegate;

        @Override
        public boolean report(Transaction transaction) {
            transactions.add(transaction.name().toString());
            return delegate.report(transaction);
        }

        @Override
        public boolean report(Span span) {
            spans.add(span.name().toString());
            return delegate.report(span);
        }

        @Override
        public boolean report(ErrorEvent error) {
            throw new AssertionError("no call fails: " + error.exception());
        }
    }
}
