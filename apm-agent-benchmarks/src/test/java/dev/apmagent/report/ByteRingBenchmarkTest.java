package dev.apmagent.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the benchmark's operations once without JMH and checks what they return. */
class ByteRingBenchmarkTest {

    @Test
    void putTakeTakesEverythingItPut() {
        ByteRingBenchmark benchmark = new ByteRingBenchmark();
        benchmark.size = 600;
        benchmark.setUp();
        assertEquals(ByteRingBenchmark.BATCH * 600L, benchmark.putTake());
        assertTrue(benchmark.ring.isEmpty());
    }

    @Test
    void putEvictingStaysAtTheBound() {
        ByteRingBenchmark benchmark = new ByteRingBenchmark();
        benchmark.size = 1500;
        benchmark.setUp();
        long used = 0;
        for (int i = 0; i < 20; i++) {
            used = benchmark.putEvicting();
        }
        assertTrue(used <= ByteRingBenchmark.CAPACITY && used > ByteRingBenchmark.CAPACITY - 1505, "used " + used);
    }
}
