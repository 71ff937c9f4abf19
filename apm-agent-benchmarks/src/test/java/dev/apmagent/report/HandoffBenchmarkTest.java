package dev.apmagent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs the hand-off benchmark's methods without JMH. */
class HandoffBenchmarkTest {

    @ParameterizedTest
    @ValueSource(strings = {"handoff_ring", "mpsc_array_queue"})
    void offeredEventsArePolledAndAFullRingDrops(String ring) {
        HandoffBenchmark b = new HandoffBenchmark();
        b.ring = ring;
        b.capacity = 16;
        b.setUp();
        HandoffBenchmark.Counters producer = new HandoffBenchmark.Counters();
        HandoffBenchmark.Counters consumer = new HandoffBenchmark.Counters();

        assertNull(b.poll(consumer));
        assertEquals(1, consumer.emptyPolls);
        for (int i = 0; i < 16; i++) {
            assertTrue(b.offer(producer), "slot " + i);
        }
        assertFalse(b.offer(producer), "full");
        assertEquals(16, producer.offered);
        assertEquals(1, producer.dropped);
        assertSame(HandoffBenchmark.EVENT, b.poll(consumer));
        assertEquals(1, consumer.polled);
        assertTrue(b.offer(producer), "room again after a poll");
        b.drain();
        assertNull(b.poll(consumer));
    }
}
