package dev.apmagent.report;

/**
 * A fixed-capacity ring of serialized events between the reporter thread (writer) and the sender thread (reader).
 * Each entry is a 5-byte header (event type, payload length) followed by the payload (one NDJSON line with its
 * newline); entries may wrap around the end of the array.
 *
 * <p>When a new entry does not fit, the oldest whole entries are evicted and counted by type, so memory stays at
 * {@code capacity} however long the server is away, and what is eventually sent is the most recent data. An entry
 * larger than the whole ring is refused. Both sides are agent threads, so the short critical sections use the ring's
 * monitor; no application thread ever touches it.
 */
public final class ByteRing {

    static final int HEADER_SIZE = 5;

    private final byte[] buf;
    private final int capacity;
    private final ReporterStats stats;
    private long head;
    private long tail;
    private final int[] entriesByType = new int[EventTypes.COUNT];
    private int entries;

    public ByteRing(int capacity, ReporterStats stats) {
        if (capacity < 64) {
            throw new IllegalArgumentException("capacity too small: " + capacity);
        }
        this.buf = new byte[capacity];
        this.capacity = capacity;
        this.stats = stats;
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Appends one entry, evicting the oldest ones if needed. Returns false (and changes nothing) when the entry is
     * larger than the whole ring.
     */
    public synchronized boolean put(int type, byte[] src, int off, int len) {
        int needed = HEADER_SIZE + len;
        if (needed > capacity) {
            return false;
        }
        while (capacity - (tail - head) < needed) {
            evictOldest();
        }
        writeByte(tail, (byte) type);
        writeByte(tail + 1, (byte) (len >>> 24));
        writeByte(tail + 2, (byte) (len >>> 16));
        writeByte(tail + 3, (byte) (len >>> 8));
        writeByte(tail + 4, (byte) len);
        copyIn(tail + HEADER_SIZE, src, off, len);
        tail += needed;
        entriesByType[type]++;
        entries++;
        return true;
    }

    private void evictOldest() {
        int type = buf[index(head)];
        int len = readLength(head);
        head += HEADER_SIZE + len;
        entriesByType[type]--;
        entries--;
        stats.evicted(type);
    }

    /**
     * Moves whole entries, oldest first, into {@code dst} (payloads only, back to back) while they fit, adding the
     * type of each entry taken to {@code taken}. Returns the number of bytes written; 0 when the ring is empty or the
     * oldest entry is larger than {@code dst} (callers size {@code dst} for the largest entry).
     */
    synchronized int take(byte[] dst, TypeSequence taken) {
        int written = 0;
        while (tail > head) {
            int len = readLength(head);
            if (written + len > dst.length) {
                break;
            }
            int type = buf[index(head)];
            copyOut(head + HEADER_SIZE, dst, written, len);
            written += len;
            head += HEADER_SIZE + len;
            entriesByType[type]--;
            entries--;
            taken.add(type);
        }
        return written;
    }

    public synchronized boolean isEmpty() {
        return tail == head;
    }

    public synchronized int entries() {
        return entries;
    }

    public synchronized int entries(int type) {
        return entriesByType[type];
    }

    public synchronized long usedBytes() {
        return tail - head;
    }

    private int index(long pos) {
        return (int) (pos % capacity);
    }

    private void writeByte(long pos, byte b) {
        buf[index(pos)] = b;
    }

    private int readLength(long pos) {
        return ((buf[index(pos + 1)] & 0xff) << 24) | ((buf[index(pos + 2)] & 0xff) << 16)
                | ((buf[index(pos + 3)] & 0xff) << 8) | (buf[index(pos + 4)] & 0xff);
    }

    private void copyIn(long pos, byte[] src, int off, int len) {
        int start = index(pos);
        int first = Math.min(len, capacity - start);
        System.arraycopy(src, off, buf, start, first);
        if (first < len) {
            System.arraycopy(src, off + first, buf, 0, len - first);
        }
    }

    private void copyOut(long pos, byte[] dst, int off, int len) {
        int start = index(pos);
        int first = Math.min(len, capacity - start);
        System.arraycopy(buf, start, dst, off, first);
        if (first < len) {
            System.arraycopy(buf, 0, dst, off + first, len - first);
        }
    }
}
