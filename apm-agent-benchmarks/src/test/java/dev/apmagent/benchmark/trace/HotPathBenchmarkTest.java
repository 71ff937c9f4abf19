package dev.apmagent.benchmark.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs the hot-path benchmark's method without JMH, so a broken benchmark fails the build. */
class HotPathBenchmarkTest {

    private static HotPathBenchmark benchmark(String strategy) {
        HotPathBenchmark b = new HotPathBenchmark();
        b.strategy = strategy;
        b.setUp();
        return b;
    }

    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue", "none"})
    void oneRequestReportsATransactionAndThreeSpansAndRecyclesThem(String strategy) throws Exception {
        HotPathBenchmark b = benchmark(strategy);
        try {
            long id = b.transactionWithThreeSpans();
            assertNotEquals(0, id);
            b.reporter.awaitDrained();
            assertEquals(0, b.tracer.activeDepth(), "everything deactivated");
            assertEquals(0, b.tracer.transactionPool().droppedCount());
        } finally {
            b.tearDown();
        }
        assertEquals(4, b.reporter.released() + b.reporter.dropped(), "one transaction and three spans reported");
        assertEquals(0, b.tracer.deactivationMismatches());
        assertEquals(0, b.tracer.reporterFailures());
    }

    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue"})
    void pooledStrategiesReuseEventsReleasedByTheReporterThread(String strategy) throws Exception {
        HotPathBenchmark b = benchmark(strategy);
        int requests = 5_000;
        try {
            for (int i = 0; i < requests; i++) {
                b.transactionWithThreeSpans();
                if (i % 64 == 63) {
                    b.reporter.awaitDrained();
                }
            }
        } finally {
            b.tearDown();
        }
        long created = b.tracer.transactionPool().createdCount();
        assertTrue(created < requests / 10, strategy + " created " + created + " transactions for " + requests);
        assertEquals(0, b.tracer.poolConflicts());
    }

    /**
     * The application thread's own allocation per request after warm-up, read from the thread's allocation counter
     * (the target is 0 B for the thread_local strategy). Every 32 requests the test waits until the reporter thread has
     * released everything, so the pool never runs dry (a pool that does allocates, by design).
     */
    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue"})
    void applicationThreadAllocatesNothingPerRequestOnceWarm(String strategy) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        HotPathBenchmark b = benchmark(strategy);
        try {
            int warmUp = 10_000;
            for (int i = 0; i < warmUp; i++) {
                b.transactionWithThreeSpans();
                if (i % 32 == 31) {
                    b.reporter.awaitReleased((i + 1) * 4L);
                }
            }
            b.reporter.awaitReleased(warmUp * 4L);
            int requests = 2_000;
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < requests; i++) {
                b.transactionWithThreeSpans();
                if (i % 32 == 31) {
                    b.reporter.awaitReleased((warmUp + i + 1) * 4L);
                }
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            // the counter itself allocates nothing; allow a few bytes of one-off noise across 2,000 requests
            assertTrue(allocated < requests, strategy + ": application thread allocated " + allocated + " B for "
                    + requests + " requests");
        } finally {
            b.tearDown();
        }
    }
}
