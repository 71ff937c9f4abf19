package dev.apmagent.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandoffRingTest {

    @ParameterizedTest
    @CsvSource({"16, 16", "17, 32", "512, 512", "513, 1024", "1000, 1024", "1, 2", "2, 2", "3, 4"})
    void capacityIsRoundedUpToAPowerOfTwo(int requested, int expected) {
        assertEquals(expected, new HandoffRing<Object>(requested).capacity());
    }

    @Test
    void aFullRingRefusesWithoutBlocking() {
        HandoffRing<Object> ring = new HandoffRing<Object>(16);
        for (int i = 0; i < 16; i++) {
            assertTrue(ring.offer(i));
        }
        assertFalse(ring.offer(99));
        assertSame(0, ring.poll());
        assertTrue(ring.offer(16));
        for (int i = 1; i <= 16; i++) {
            assertEquals(i, ring.poll());
        }
        assertNull(ring.poll());
    }

    /**
     * 8 producers race a consumer through a small ring: every offered value is either consumed exactly once or refused
     * (offer returned false), never both, never lost, never duplicated.
     */
    @Test
    void eightProducersLoseAndDuplicateNothing() throws Exception {
        final int producers = 8;
        final int perProducer = 100_000;
        final HandoffRing<Long> ring = new HandoffRing<Long>(64);
        final BitSet refused = new BitSet(producers * perProducer);
        final BitSet[] refusedBy = new BitSet[producers];
        final CountDownLatch start = new CountDownLatch(1);
        final AtomicLong producing = new AtomicLong(producers);
        List<Thread> threads = new ArrayList<Thread>();
        for (int p = 0; p < producers; p++) {
            final int id = p;
            refusedBy[p] = new BitSet(perProducer);
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perProducer; i++) {
                    long value = (long) id * perProducer + i;
                    if (!ring.offer(value)) {
                        refusedBy[id].set(i);
                    }
                    if ((i & 15) == 0) {
                        Thread.yield(); // let the consumer run on a small machine, so claims succeed as well as fail
                    }
                }
                producing.decrementAndGet();
            });
            t.start();
            threads.add(t);
        }
        BitSet consumed = new BitSet(producers * perProducer);
        long duplicates = 0;
        long[] lastSeen = new long[producers];
        java.util.Arrays.fill(lastSeen, -1);
        long outOfOrder = 0;
        start.countDown();
        while (true) {
            Long v = ring.poll();
            if (v == null) {
                if (producing.get() == 0 && ring.size() == 0) {
                    break;
                }
                Thread.onSpinWait();
                continue;
            }
            int idx = (int) (long) v;
            if (consumed.get(idx)) {
                duplicates++;
            }
            consumed.set(idx);
            int producer = idx / perProducer;
            if (idx <= lastSeen[producer]) {
                outOfOrder++;
            }
            lastSeen[producer] = idx;
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int p = 0; p < producers; p++) {
            for (int i = refusedBy[p].nextSetBit(0); i >= 0; i = refusedBy[p].nextSetBit(i + 1)) {
                refused.set(p * perProducer + i);
            }
        }
        assertEquals(0, duplicates, "duplicates");
        assertEquals(0, outOfOrder, "one producer's events arrive in its order");
        BitSet both = (BitSet) consumed.clone();
        both.and(refused);
        assertTrue(both.isEmpty(), "consumed and refused: " + both.cardinality());
        BitSet all = (BitSet) consumed.clone();
        all.or(refused);
        assertEquals(producers * perProducer, all.cardinality(), "every value was either consumed or refused");
        assertTrue(consumed.cardinality() > producers * perProducer / 100, "the test exercised successful claims too");
        System.out.printf("handoff contention: %d consumed, %d refused (%d after losing two claim races)%n",
                consumed.cardinality(), refused.cardinality(), ring.contendedDrops());
    }

    /** Prints how long events wait in the ring with a trickle of producers (a measurement; asserts only delivery). */
    @Test
    void pickUpLatencyUnderATrickle() throws Exception {
        final HandoffRing<long[]> ring = new HandoffRing<long[]>(512);
        final int n = 2000;
        final long[] waited = new long[n];
        final CountDownLatch done = new CountDownLatch(1);
        Thread consumer = new Thread(() -> {
            int got = 0;
            while (got < n) {
                long[] e = ring.poll();
                if (e == null) {
                    ring.awaitEvents(TimeUnit.MILLISECONDS.toNanos(100));
                    continue;
                }
                ring.onWork();
                waited[(int) e[1]] = System.nanoTime() - e[0];
                got++;
            }
            done.countDown();
        });
        consumer.start();
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < n; i++) {
            assertTrue(ring.offer(new long[] {System.nanoTime(), i}));
            long pause = random.nextInt(3) == 0 ? 5_000_000L : 200_000L; // bursts and quiet moments
            java.util.concurrent.locks.LockSupport.parkNanos(pause);
        }
        assertTrue(done.await(30, TimeUnit.SECONDS));
        long[] sorted = waited.clone();
        java.util.Arrays.sort(sorted);
        double mean = java.util.Arrays.stream(sorted).average().orElse(0);
        System.out.printf("hand-off pick-up latency: mean %.0f us, p50 %d us, p99 %d us%n", mean / 1000, sorted[n / 2] / 1000,
                sorted[n * 99 / 100] / 1000);
    }

    @Test
    void aSleepingConsumerIsWokenByTheNextOffer() throws Exception {
        final HandoffRing<Object> ring = new HandoffRing<Object>(16);
        final CountDownLatch got = new CountDownLatch(1);
        Thread consumer = new Thread(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                if (ring.poll() != null) {
                    got.countDown();
                    return;
                }
                ring.awaitEvents(TimeUnit.SECONDS.toNanos(30)); // a long sleep: only an unpark ends it early
            }
        });
        consumer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!ring.isConsumerSleeping() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(ring.isConsumerSleeping(), "the consumer announced its sleep");
        assertTrue(ring.offer("event"));
        assertTrue(got.await(10, TimeUnit.SECONDS), "the offer woke the consumer long before its 30 s sleep ended");
        consumer.join();
    }
}
