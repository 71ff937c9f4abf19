package dev.apmagent.benchmark.httpclient;

import dev.apmagent.plugin.PluginHealth;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the benchmark's set-up and operation without JMH, in each mode and with each client: every call answers 200;
 * traced calls carry a {@code traceparent} and report a transaction and a span each; idle ones carry none and report
 * nothing. (In this JVM {@code none} is not free of instrumentation once another mode installed it: JMH's fork per
 * mode is.)
 */
class ApacheHttpClientBenchmarkTest {

    private static final int CALLS = 50;

    @ParameterizedTest
    @ValueSource(strings = {"apache5", "apache4"})
    void eachModeAnswersAndTracesWhatItShould(String client) throws Exception {
        long failures = PluginHealth.of("apache-httpclient").failures();
        for (String mode : new String[] {"none", "idle", "agent"}) {
            ApacheHttpClientBenchmark benchmark = new ApacheHttpClientBenchmark();
            benchmark.mode = mode;
            benchmark.client = client;
            benchmark.setUp();
            try {
                for (int i = 0; i < CALLS; i++) {
                    assertEquals(200, benchmark.get(), mode);
                    if (mode.equals("agent")) {
                        assertNotNull(benchmark.lastTraceparent, "a traced call carries the trace context");
                    } else {
                        assertNull(benchmark.lastTraceparent, mode + ": no trace context without a transaction");
                    }
                }
                if (benchmark.reporter != null) {
                    long expected = mode.equals("agent") ? 2L * CALLS : 0;
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (benchmark.reporter.released() + benchmark.reporter.dropped() < expected && System.nanoTime() < deadline) {
                        Thread.sleep(1);
                    }
                    benchmark.reporter.awaitDrained();
                    assertEquals(expected, benchmark.reporter.released(), mode + ": a transaction and a span per traced call");
                    assertEquals(0, benchmark.reporter.dropped());
                }
            } finally {
                benchmark.tearDown();
                benchmark.uninstall();
            }
        }
        assertTrue(PluginHealth.of("apache-httpclient").failures() == failures, "failures inside the plugin");
    }
}
