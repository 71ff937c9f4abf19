package dev.apmagent.benchmark.context;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs the benchmark's operations without JMH, on both paths, and checks their answers and the map's size. */
class ContextStoreBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"field", "map", "map_attach", "map_only"})
    void everyOperationFindsTheValue(String path) {
        int before = ContextStoreBenchmark.boundStore.size();
        ContextStoreBenchmark benchmark = new ContextStoreBenchmark();
        benchmark.path = path;
        benchmark.setUp();
        int mapped = path.equals("map") ? ContextStoreBenchmark.LIVE : 0;
        assertEquals(before + mapped, ContextStoreBenchmark.boundStore.size(), "the field path leaves the map alone");
        if (path.endsWith("_attach") || path.endsWith("_only")) {
            assertEquals(ContextStoreBenchmark.LIVE, benchmark.store.size());
        }
        for (int i = 0; i < 2 * ContextStoreBenchmark.LIVE; i++) {
            assertEquals(ContextStoreBenchmark.VALUE, benchmark.get());
            assertEquals(ContextStoreBenchmark.VALUE, benchmark.putGetRemove());
        }
        assertEquals(before + mapped, ContextStoreBenchmark.boundStore.size(), "every put was removed");
        for (Object key : benchmark.live) {
            benchmark.store.remove(key);
        }
    }
}
