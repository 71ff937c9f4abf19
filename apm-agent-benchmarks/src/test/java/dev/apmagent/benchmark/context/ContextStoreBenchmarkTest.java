package dev.apmagent.benchmark.context;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs the benchmark's operations without JMH, on both paths, and checks their answers and the map's size. */
class ContextStoreBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"field", "map"})
    void everyOperationFindsTheValue(String path) {
        int before = ContextStoreBenchmark.store.size();
        ContextStoreBenchmark benchmark = new ContextStoreBenchmark();
        benchmark.path = path;
        benchmark.setUp();
        int mapped = path.equals("map") ? ContextStoreBenchmark.LIVE : 0;
        assertEquals(before + mapped, ContextStoreBenchmark.store.size(), "the field path leaves the map alone");
        for (int i = 0; i < 2 * ContextStoreBenchmark.LIVE; i++) {
            assertEquals(ContextStoreBenchmark.VALUE, benchmark.get());
            assertEquals(ContextStoreBenchmark.VALUE, benchmark.putGetRemove());
        }
        assertEquals(before + mapped, ContextStoreBenchmark.store.size(), "every put was removed");
        for (Object key : benchmark.live) {
            ContextStoreBenchmark.store.remove(key);
        }
    }
}
