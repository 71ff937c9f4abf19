package dev.apmagent.benchmark.http;

import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the benchmark's set-up and operation without JMH, in each mode, and checks the answer and what reached the
 * reporter (a recorder in front of the releasing reporter copies names on the thread that ends each event).
 */
class UrlConnectionCallBenchmarkTest {

    private static final int CALLS = 50;

    @Test
    void withoutTheAgentTheCallAnswers() throws Exception {
        UrlConnectionCallBenchmark benchmark = new UrlConnectionCallBenchmark();
        benchmark.mode = "none";
        run(benchmark);
        assertNull(benchmark.reporter);
    }

    @Test
    void idleTracesNothing() throws Exception {
        ConcurrentLinkedQueue<String> recorded = new ConcurrentLinkedQueue<>();
        UrlConnectionCallBenchmark benchmark = recording("idle", recorded);
        run(benchmark);
        assertTrue(recorded.isEmpty(), "nothing active, nothing recorded: " + recorded);
    }

    @Test
    void tracedCallIsATransactionAndItsExitSpan() throws Exception {
        ConcurrentLinkedQueue<String> recorded = new ConcurrentLinkedQueue<>();
        UrlConnectionCallBenchmark benchmark = recording("agent", recorded);
        long failures = PluginHealth.of("jdk-http").failures();
        run(benchmark);
        long spans = recorded.stream().filter(s -> s.equals("span GET 127.0.0.1 200")).count();
        long transactions = recorded.stream().filter(s -> s.equals("transaction")).count();
        assertEquals(CALLS, spans, "one exit span per call: " + recorded);
        assertEquals(CALLS, transactions);
        assertEquals(2 * CALLS, recorded.size());
        assertEquals(failures, PluginHealth.of("jdk-http").failures(), "failures inside the plugin");
    }

    private static UrlConnectionCallBenchmark recording(String mode, ConcurrentLinkedQueue<String> recorded) {
        UrlConnectionCallBenchmark benchmark = new UrlConnectionCallBenchmark() {
            @Override
            Reporter reportTo(ReleasingReporter releasing) {
                return new Reporter() {
                    @Override
                    public boolean report(Transaction transaction) {
                        recorded.add("transaction");
                        return releasing.report(transaction);
                    }

                    @Override
                    public boolean report(Span span) {
                        recorded.add("span " + span.name() + " " + span.context().http().statusCode());
                        return releasing.report(span);
                    }

                    @Override
                    public boolean report(ErrorEvent error) {
                        recorded.add("error");
                        return releasing.report(error);
                    }
                };
            }
        };
        benchmark.mode = mode;
        return benchmark;
    }

    private static void run(UrlConnectionCallBenchmark benchmark) throws Exception {
        benchmark.setUp();
        try {
            for (int i = 0; i < CALLS; i++) {
                assertEquals(UrlConnectionCallBenchmark.BODY.length, benchmark.call());
            }
        } finally {
            benchmark.tearDown();
            benchmark.uninstall();
        }
    }
}
