package dev.apmagent.benchmark.jdbc;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the benchmark's operations without JMH, in the traced modes, and checks they return the row and record spans.
 * The set-up itself fails when H2's classes did not take the path the mode names (context fields for {@code agent},
 * the stores' maps for {@code agent_attach}).
 */
class JdbcQueryBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"agent", "agent_attach"})
    void theTracedQueriesReturnTheRowAndRecordTheirSpans(String mode) throws Exception {
        JdbcQueryBenchmark benchmark = new JdbcQueryBenchmark();
        benchmark.mode = mode;
        benchmark.setUp();
        try {
            for (int i = 0; i < 100; i++) {
                assertEquals(3, benchmark.executeQuery());
                assertEquals(3, benchmark.prepareExecuteClose());
            }
        } finally {
            benchmark.tearDown();
        }
        assertTrue(benchmark.reporter.released() >= 400, "200 transactions and 200 query spans reached the reporter: "
                + benchmark.reporter.released());
    }
}
