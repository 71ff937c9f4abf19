package dev.apmagent.benchmark.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs the pool benchmark's methods without JMH, so a broken benchmark fails the build. */
class PoolHandoffBenchmarkTest {

    static final String[] STRATEGIES = {"thread_local", "queue", "none", "mpsc_linked", "mpsc_chunked"};

    private static PoolHandoffBenchmark benchmark(String strategy) {
        PoolHandoffBenchmark b = new PoolHandoffBenchmark();
        b.strategy = strategy;
        b.capacity = 1024;
        b.setUp(1);
        return b;
    }

    private static PoolHandoffBenchmark.Producer producer(PoolHandoffBenchmark b, int index) {
        PoolHandoffBenchmark.Producer p = new PoolHandoffBenchmark.Producer();
        p.register(b, index);
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue", "none", "mpsc_linked", "mpsc_chunked"})
    void acquireHandsOffAndReleaseRecyclesIt(String strategy) {
        PoolHandoffBenchmark b = benchmark(strategy);
        PoolHandoffBenchmark.Producer p = producer(b, 0);
        PoolHandoffBenchmark.Counters producer = new PoolHandoffBenchmark.Counters();
        PoolHandoffBenchmark.Counters releaser = new PoolHandoffBenchmark.Counters();

        assertEquals(0, b.release(releaser), "nothing handed off yet");
        assertEquals(1, releaser.emptyPolls);

        assertEquals(1, b.acquire(p, producer));
        assertEquals(1, producer.handedOff);
        assertEquals(1, p.handoff.size());
        PooledEvent event = p.handoff.peek();
        assertEquals(1, event.id);
        assertEquals("SELECT FROM orders", event.name.toString());

        assertNotEquals(0, b.release(releaser), "the releaser read the filled event");
        assertEquals(1, releaser.released);
        assertEquals(0, event.id, "reset before release");
        assertEquals(0, event.name.length());
        assertTrue(p.handoff.isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue", "none", "mpsc_linked", "mpsc_chunked"})
    void fullHandOffIsReleasedOnTheProducerAndCounted(String strategy) {
        PoolHandoffBenchmark b = benchmark(strategy);
        PoolHandoffBenchmark.Producer p = producer(b, 0);
        PoolHandoffBenchmark.Counters producer = new PoolHandoffBenchmark.Counters();
        for (int i = 0; i < PoolHandoffBenchmark.HANDOFF_CAPACITY + 10; i++) {
            b.acquire(p, producer);
        }
        assertEquals(PoolHandoffBenchmark.HANDOFF_CAPACITY, producer.handedOff);
        assertEquals(10, producer.dropped);
        b.drainHandoff();
        assertTrue(p.handoff.isEmpty());
    }

    /** The pattern the benchmark models: acquired on one thread, released on another, reused by the first. */
    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue", "mpsc_linked", "mpsc_chunked"})
    void objectsReleasedOnAnotherThreadAreReusedByTheProducer(String strategy) throws Exception {
        PoolHandoffBenchmark b = benchmark(strategy);
        PoolHandoffBenchmark.Producer p = producer(b, 0);
        PoolHandoffBenchmark.Counters producer = new PoolHandoffBenchmark.Counters();
        PoolHandoffBenchmark.Counters releaser = new PoolHandoffBenchmark.Counters();
        ExecutorService releasing = Executors.newSingleThreadExecutor();
        try {
            int rounds = 50;
            int perRound = 200;
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < perRound; i++) {
                    b.acquire(p, producer);
                }
                releasing.submit(() -> {
                    while (b.release(releaser) != 0) {
                        // drain what this round handed off
                    }
                }).get();
            }
            assertEquals(rounds * perRound, producer.handedOff);
            assertEquals(rounds * perRound, releaser.released);
            long created = b.pool.createdCount();
            assertTrue(created < rounds * perRound / 4,
                    strategy + " allocated " + created + " objects for " + rounds * perRound + " acquisitions");
        } finally {
            releasing.shutdownNow();
        }
    }

    @Test
    void releaserVisitsEveryProducersQueue() {
        PoolHandoffBenchmark b = new PoolHandoffBenchmark();
        b.strategy = "queue";
        b.capacity = 1024;
        b.setUp(3);
        PoolHandoffBenchmark.Counters counters = new PoolHandoffBenchmark.Counters();
        for (int i = 0; i < 3; i++) {
            PoolHandoffBenchmark.Producer p = producer(b, i);
            b.acquire(p, counters);
            b.acquire(p, counters);
        }
        int released = 0;
        while (b.release(counters) != 0) {
            released++;
        }
        assertEquals(6, released);
        assertEquals(6, counters.released);
        assertEquals(1, counters.emptyPolls);
    }

    @Test
    void noneAllocatesEveryTime() {
        PoolHandoffBenchmark b = benchmark("none");
        PoolHandoffBenchmark.Producer p = producer(b, 0);
        PoolHandoffBenchmark.Counters counters = new PoolHandoffBenchmark.Counters();
        for (int i = 0; i < 100; i++) {
            b.acquire(p, counters);
            b.release(counters);
        }
        assertEquals(100, b.pool.createdCount());
    }

    @Test
    void returnToOriginPoolGivesAnObjectBackToTheThreadThatAcquiredIt() throws Exception {
        ReturnToOriginPool pool = (ReturnToOriginPool) BenchmarkPools.create(BenchmarkPools.MPSC_LINKED, 16);
        PooledEvent event = pool.acquire();
        Thread other = new Thread(() -> pool.release(event));
        other.start();
        other.join();
        assertSame(event, pool.acquire());
        assertEquals(1, pool.createdCount());
    }

    @Test
    void everyStrategyNameIsKnown() {
        for (String strategy : STRATEGIES) {
            assertTrue(BenchmarkPools.create(strategy, 64).acquire() != null, strategy);
        }
    }
}
