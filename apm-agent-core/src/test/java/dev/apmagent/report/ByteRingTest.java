package dev.apmagent.report;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ByteRingTest {

    private final ReporterStats stats = new ReporterStats(() -> 0);

    @Test
    void entriesComeOutWholeInOrderAcrossTheWrap() {
        ByteRing ring = new ByteRing(100, stats);
        TypeSequence taken = new TypeSequence();
        byte[] dst = new byte[100];
        StringBuilder written = new StringBuilder();
        StringBuilder read = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            String line = "line-" + i + "\n";
            assertTrue(put(ring, EventTypes.SPAN, line));
            written.append(line);
            if (i % 3 == 2) {
                int n = ring.take(dst, taken);
                assertTrue(n > 0, "three entries were put since the last take");
                read.append(new String(dst, 0, n, StandardCharsets.UTF_8));
            }
        }
        for (int n = ring.take(dst, taken); n > 0; n = ring.take(dst, taken)) {
            read.append(new String(dst, 0, n, StandardCharsets.UTF_8));
        }
        assertEquals(written.toString(), read.toString(), "every entry, whole and in order, across many wraps");
        assertEquals(0, stats.evicted());
    }

    @Test
    void whenFullTheOldestWholeEntriesAreEvictedAndCountedByType() {
        ByteRing ring = new ByteRing(64, stats);
        assertTrue(put(ring, EventTypes.TRANSACTION, "aaaaaaaaaaaaaaaaaaa\n")); // 5 + 20
        assertTrue(put(ring, EventTypes.ERROR, "bbbbbbbbbbbbbbbbbbb\n"));       // 5 + 20
        assertTrue(put(ring, EventTypes.SPAN, "ccccccccccccccccccc\n"));        // needs 25, 14 free: evicts the transaction
        assertEquals(1, stats.evictedOf(EventTypes.TRANSACTION));
        assertEquals(0, stats.evictedOf(EventTypes.ERROR));
        assertEquals(2, ring.entries());
        assertEquals(1, ring.entries(EventTypes.SPAN));
        TypeSequence taken = new TypeSequence();
        byte[] dst = new byte[64];
        int n = ring.take(dst, taken);
        assertEquals("bbbbbbbbbbbbbbbbbbb\nccccccccccccccccccc\n", new String(dst, 0, n, StandardCharsets.UTF_8));
        assertEquals(EventTypes.ERROR, taken.get(0));
        assertEquals(EventTypes.SPAN, taken.get(1));
        assertTrue(ring.isEmpty());
    }

    @Test
    void anEntryLargerThanTheRingIsRefusedAndChangesNothing() {
        ByteRing ring = new ByteRing(64, stats);
        assertTrue(put(ring, EventTypes.SPAN, "small\n"));
        assertFalse(ring.put(EventTypes.SPAN, new byte[60], 0, 60));
        assertEquals(1, ring.entries());
        assertEquals(0, stats.evicted());
    }

    @Test
    void takeStopsAtTheFirstEntryThatDoesNotFit() {
        ByteRing ring = new ByteRing(256, stats);
        put(ring, EventTypes.SPAN, "0123456789\n");
        put(ring, EventTypes.SPAN, "0123456789\n");
        byte[] dst = new byte[15];
        TypeSequence taken = new TypeSequence();
        assertEquals(11, ring.take(dst, taken));
        assertEquals(1, ring.entries());
    }

    @Test
    void memoryStaysBoundedUnderEndlessWrites() {
        ByteRing ring = new ByteRing(4096, stats);
        byte[] line = new byte[100];
        for (int i = 0; i < 100_000; i++) {
            assertTrue(ring.put(i % EventTypes.COUNT, line, 0, line.length));
            assertTrue(ring.usedBytes() <= 4096);
        }
        assertEquals(100_000 - ring.entries(), stats.evicted());
    }

    private static boolean put(ByteRing ring, int type, String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return ring.put(type, b, 0, b.length);
    }
}
