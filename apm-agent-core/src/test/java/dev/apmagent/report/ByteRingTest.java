package dev.apmagent.report;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ByteRingTest {

    private final ReporterStats stats = new ReporterStats(() -> 0);

    @Test
    void entriesComeOutWholeInOrderAcrossChunksAndTheWrap() {
        ByteRing ring = new ByteRing(100, 16, stats); // entries of 11-12 bytes span 16-byte chunks
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

    /** A bound far above what is buffered costs nothing until entries arrive (it used to be one array of the bound). */
    @Test
    void aLargeBoundAllocatesNothingUpFront() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        ByteRing ring = new ByteRing(256 << 20, stats);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // two arrays of one reference per 64 KB chunk of the bound: 2 x 4,096 slots (a power of two above 4,098)
        assertTrue(allocated < 2 * 8192 * 8 + 1024, "a 256 MB ring allocated " + allocated + " bytes before any entry");
        assertTrue(ring.isEmpty());
    }

    /**
     * Resident memory follows what is buffered: filling the ring to N bytes holds the chunks those N bytes touch;
     * draining it releases them to the free list, and two trims (two periods, the first of which needed them all) give
     * them back except one spare kept for the next entries.
     */
    @Test
    void chunksAreAllocatedAsEntriesArriveAndReleasedWhenTaken() {
        int chunk = ByteRing.CHUNK_SIZE;
        ByteRing ring = new ByteRing(64 * chunk, stats);
        assertEquals(0, ring.chunksHeld());
        assertEquals(0, ring.spareChunks());

        byte[] line = new byte[995]; // 1,000 bytes an entry with its header
        Arrays.fill(line, (byte) 'x');
        for (int i = 0; i < 1000; i++) {
            assertTrue(ring.put(EventTypes.SPAN, line, 0, line.length));
        }
        assertEquals(1_000_000, ring.usedBytes());
        assertEquals((1_000_000 + chunk - 1) / chunk, ring.chunksHeld(), "the chunks that 1,000,000 bytes from 0 touch");

        byte[] dst = new byte[64 * 1024];
        TypeSequence taken = new TypeSequence();
        while (ring.take(dst, taken) > 0) {
            taken.clear();
        }
        assertTrue(ring.isEmpty());
        assertEquals(0, ring.chunksHeld(), "an empty ring holds no chunk");
        assertEquals(16, ring.spareChunks(), "released chunks wait in the free list until the next trim");
        ring.trimSpares();
        assertEquals(16, ring.spareChunks(), "the period just ended needed 16 chunks at once");
        ring.trimSpares();
        assertEquals(1, ring.spareChunks(), "a period that needed none: one spare is kept");
        ring.trimSpares();
        assertEquals(1, ring.spareChunks());
        assertEquals(ByteRing.CHUNK_SIZE, ring.residentBytes());
        assertEquals(0, stats.evicted());

        assertTrue(ring.put(EventTypes.SPAN, line, 0, line.length));
        assertEquals(1, ring.chunksHeld());
        assertEquals(0, ring.spareChunks(), "the spare was used");
    }

    @Test
    void atTheBoundTheChunksHeldStayWithinTheBoundPlusOne() {
        int chunk = ByteRing.CHUNK_SIZE;
        ByteRing ring = new ByteRing(4 * chunk, stats);
        byte[] line = new byte[1234];
        for (int i = 0; i < 10_000; i++) {
            assertTrue(ring.put(EventTypes.SPAN, line, 0, line.length));
            assertTrue(ring.usedBytes() <= 4 * chunk);
            assertTrue(ring.chunksHeld() <= 5, "chunks held: " + ring.chunksHeld());
            assertTrue(ring.chunksHeld() + ring.spareChunks() <= 5, "spares: " + ring.spareChunks());
        }
        assertEquals(10_000 - ring.entries(), stats.evicted());
    }

    /**
     * A sender that takes what the reporter wrote, a batch of 150 KB at a time, finds its chunks in the free list: after
     * the first few batches, nothing is allocated however often the trim runs.
     */
    @Test
    void aRingThatKeepsUpAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ByteRing ring = new ByteRing(4 << 20, stats);
        byte[] line = new byte[600];
        byte[] dst = new byte[16 * 1024];
        TypeSequence taken = new TypeSequence();
        long allocatedAfterFirst = 0;
        for (int batch = 0; batch < 200; batch++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 256; i++) {
                ring.put(EventTypes.SPAN, line, 0, line.length);
            }
            while (ring.take(dst, taken) > 0) {
                taken.clear();
            }
            ring.trimSpares();
            if (batch >= 10) { // the first batches find the working set
                allocatedAfterFirst += threads.getCurrentThreadAllocatedBytes() - before;
            }
        }
        assertTrue(allocatedAfterFirst < 1024, "allocated after the first ten batches: " + allocatedAfterFirst);
        assertTrue(ring.residentBytes() <= 4 * ByteRing.CHUNK_SIZE, "resident: " + ring.residentBytes());
    }

    /** Chunks are smaller than max_event_size (300 KB by default): an entry spans as many as it needs. */
    @Test
    void anEntryLargerThanAChunkSpansChunks() {
        ByteRing ring = new ByteRing(1 << 20, stats);
        byte[] small = "small\n".getBytes(StandardCharsets.UTF_8);
        byte[] big = new byte[300 * 1024];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) i;
        }
        assertTrue(ring.put(EventTypes.METRICSET, small, 0, small.length));
        assertTrue(ring.put(EventTypes.ERROR, big, 0, big.length));
        assertEquals(5, ring.chunksHeld(), "11 + 307,205 bytes from 0 touch 5 chunks of 64 KB");
        byte[] dst = new byte[big.length + 16];
        TypeSequence taken = new TypeSequence();
        assertEquals(small.length, ring.take(dst, 1, taken));
        assertEquals(big.length, ring.take(dst, taken));
        assertArrayEquals(big, Arrays.copyOf(dst, big.length));
        assertEquals(EventTypes.ERROR, taken.get(1));
        assertEquals(0, ring.chunksHeld());
    }

    private static boolean put(ByteRing ring, int type, String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return ring.put(type, b, 0, b.length);
    }
}
