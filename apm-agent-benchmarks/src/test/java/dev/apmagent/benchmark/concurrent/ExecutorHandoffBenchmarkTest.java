package dev.apmagent.benchmark.concurrent;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Runs the benchmark's operation without JMH in each mode, then checks what a task on the pool sees as active. */
class ExecutorHandoffBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"none", "idle", "active"})
    void executeHandsOffAndOnlyTheActiveModeCarriesTheTransaction(String mode) throws Exception {
        ExecutorHandoffBenchmark benchmark = new ExecutorHandoffBenchmark();
        benchmark.mode = mode;
        benchmark.setUp();
        try {
            for (int i = 0; i < 3; i++) {
                benchmark.closeGate();
                benchmark.execute();
                assertEquals(ExecutorHandoffBenchmark.BATCH, benchmark.pool.getQueue().size(), "the batch waits behind the gate");
                benchmark.openGate();
            }
            Object seen = benchmark.pool.submit(() -> benchmark.tracer == null ? null : benchmark.tracer.active())
                    .get(10, TimeUnit.SECONDS);
            if (mode.equals("active")) {
                assertSame(benchmark.transaction, seen);
            } else {
                assertNull(seen);
            }
        } finally {
            benchmark.tearDown();
        }
    }
}
