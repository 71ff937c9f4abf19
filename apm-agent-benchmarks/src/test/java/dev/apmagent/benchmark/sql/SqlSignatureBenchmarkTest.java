package dev.apmagent.benchmark.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Runs the SQL signature benchmark's methods without JMH and checks the names they compute. */
class SqlSignatureBenchmarkTest {

    @ParameterizedTest
    @CsvSource({
            "short, SELECT FROM ELASTIC_APM",
            "long,  SELECT FROM customers",
    })
    void benchmarkMethodsComputeTheSpanName(String statement, String expected) {
        SqlSignatureBenchmark b = new SqlSignatureBenchmark();
        b.statement = statement;
        b.setUp();
        assertEquals(expected, b.appendTo().toString());
        assertEquals(expected, b.appendTo().toString(), "the builder is cleared before each call");
        assertEquals(expected, b.of());
    }

    @Test
    void unknownStatementParameterIsRejected() {
        SqlSignatureBenchmark b = new SqlSignatureBenchmark();
        b.statement = "medium";
        assertThrows(IllegalArgumentException.class, b::setUp);
    }
}
