package dev.apmagent.benchmark.jdbc;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the benchmark's operation without JMH, in the traced mode, and checks it returns the row and records spans. */
class JdbcQueryBenchmarkTest {

    @Test
    void theTracedQueryReturnsTheRowAndRecordsItsSpan() throws Exception {
        JdbcQueryBenchmark benchmark = new JdbcQueryBenchmark();
        benchmark.mode = "agent";
        benchmark.setUp();
        try {
            for (int i = 0; i < 100; i++) {
                assertEquals(3, benchmark.executeQuery());
            }
        } finally {
            benchmark.tearDown();
        }
        assertTrue(benchmark.reporter.released() >= 200, "100 transactions and 100 query spans reached the reporter: "
                + benchmark.reporter.released());
    }
}
