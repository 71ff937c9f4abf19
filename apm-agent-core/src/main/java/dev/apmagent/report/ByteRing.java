package dev.apmagent.report;

/**
 * A bounded ring of serialized events between the reporter thread (writer) and the sender thread (reader). Each entry
 * is a 5-byte header (event type, payload length) followed by the payload (one NDJSON line with its newline).
 *
 * <p><b>Bound and eviction.</b> At most {@code capacity} bytes of entries are held (max_buffer_size). When a new entry
 * does not fit, the oldest whole entries are evicted and counted by type, so memory stays bounded however long the
 * server is away, and what is eventually sent is the most recent data. An entry larger than the whole ring is refused.
 *
 * <p><b>Memory follows what is buffered.</b> The bytes live in chunks of {@link #CHUNK_SIZE} (64 KB), allocated when
 * the writer first reaches them and released when the reader has taken every entry that touches them (the chunk under
 * the read position is released too once the ring is empty). Released chunks go to a free list that the writer takes
 * from before it allocates, and {@link #trimSpares()} (the reporter thread, about once a second) gives back to the
 * garbage collector the spares that the period before did not need: it keeps as many as the most chunks held at once
 * during the period, plus one (the same amount of entries may straddle one more chunk boundary next time), less those
 * held now. A ring whose sender keeps up therefore cycles through the
 * same few chunks and allocates nothing (the reporter writes up to 256 events, some 150 KB, before the sender runs,
 * so one spare would not do), while the chunks of an outage are given back within two periods of the sender taking
 * them. A ring holds what is buffered rounded up to whole chunks, plus at most one more (the partly used ones at both
 * ends) and its spares: nothing before the first event, a few chunks while the server keeps up, about
 * {@code capacity} plus 128 KB at the bound during an outage, and one chunk again a couple of seconds after the server
 * has taken everything. A bound far above what is ever buffered costs nothing but two arrays of one reference per chunk
 * of the bound (32 K references for 1 GB).
 *
 * <p><b>Entries span chunks.</b> An entry can be up to max_event_size (300 KB by default, up to the whole bound), larger
 * than a chunk. We let entries continue into the next chunk rather than make chunks at least max_event_size: chunks
 * that large would make memory follow the buffered bytes only in steps of 300 KB or more, be allocated outside the
 * young generation's fast path (G1 treats objects of half a region, 512 KB on heaps below 2 GB, as humongous), and
 * leave the unused tail of a chunk wasted whenever the next entry does not fit in it. The price is a second
 * {@code System.arraycopy} (and a header read byte by byte) for the few entries that straddle a chunk boundary: one in
 * about a hundred for a 600-byte span. 64 KB is also the smallest bound, so the smallest ring holds at most two chunks.
 *
 * <p><b>Positions.</b> {@code head} and {@code tail} are byte positions that only grow; a position's chunk is
 * {@code position >>> chunkShift} (held in slot {@code chunk & slotMask} of a small array) and its offset
 * {@code position & chunkMask}: a shift and a mask per entry, no division. This is laid out for serializing straight
 * into the ring later (issue #16): the writer can hand the serializer the tail chunk and its offset, let it continue
 * into the next chunk when the line does not fit, and publish the entry by moving {@code tail}. Both sides are agent
 * threads, so the short critical sections use the ring's monitor for now; no application thread ever touches it.
 */
public final class ByteRing {

    static final int HEADER_SIZE = 5;
    /** Size of one chunk (a power of two); rings smaller than this use one chunk of their own size, rounded up. */
    public static final int CHUNK_SIZE = 64 * 1024;

    private final int capacity;
    private final int chunkSize;
    private final int chunkShift;
    private final int chunkMask;
    /** Chunk {@code n} (of positions {@code n << chunkShift ...}) lives in slot {@code n & slotMask}, null until used. */
    private final byte[][] chunks;
    private final int slotMask;
    private final ReporterStats stats;
    /** Released chunks kept for the writer, {@code spares[0 .. spareCount)}; never more than the slots. */
    private final byte[][] spares;
    private int spareCount;
    private int chunksHeld;
    /** The most chunks held at once since the last {@link #trimSpares()}. */
    private int peakHeld;
    /** Chunks made with {@code new} over the ring's life (not spares taken again). */
    private long chunksAllocated;
    private long head;
    private long tail;
    private final int[] entriesByType = new int[EventTypes.COUNT];
    private int entries;
    /** Scratch for a header that straddles two chunks (writer, under the monitor). */
    private final byte[] header = new byte[HEADER_SIZE];

    public ByteRing(int capacity, ReporterStats stats) {
        this(capacity, Math.min(CHUNK_SIZE, Integer.highestOneBit(capacity - 1) << 1), stats);
    }

    /** {@code chunkSize} must be a power of two; tests use small ones so that entries span chunks. */
    ByteRing(int capacity, int chunkSize, ReporterStats stats) {
        if (capacity < 64) {
            throw new IllegalArgumentException("capacity too small: " + capacity);
        }
        if (chunkSize < 8 || Integer.bitCount(chunkSize) != 1) {
            throw new IllegalArgumentException("chunk size not a power of two of at least 8: " + chunkSize);
        }
        this.capacity = capacity;
        this.chunkSize = chunkSize;
        this.chunkShift = Integer.numberOfTrailingZeros(chunkSize);
        this.chunkMask = chunkSize - 1;
        // capacity bytes starting anywhere in a chunk touch at most (capacity - 1) / chunkSize + 2 chunks
        int maxChunks = (capacity - 1) / chunkSize + 2;
        int slots = Integer.highestOneBit(maxChunks - 1) << 1;
        this.chunks = new byte[slots][];
        this.spares = new byte[slots][];
        this.slotMask = slots - 1;
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
        if (capacity - (tail - head) < needed) {
            long oldHead = head;
            do {
                evictOldest();
            } while (capacity - (tail - head) < needed);
            releaseConsumed(oldHead);
        }
        long pos = tail;
        byte[] chunk = writableChunk(pos);
        int at = (int) pos & chunkMask;
        if (at + needed <= chunkSize) { // the usual case: the whole entry in one chunk
            chunk[at] = (byte) type;
            chunk[at + 1] = (byte) (len >>> 24);
            chunk[at + 2] = (byte) (len >>> 16);
            chunk[at + 3] = (byte) (len >>> 8);
            chunk[at + 4] = (byte) len;
            System.arraycopy(src, off, chunk, at + HEADER_SIZE, len);
        } else {
            byte[] h = header;
            h[0] = (byte) type;
            h[1] = (byte) (len >>> 24);
            h[2] = (byte) (len >>> 16);
            h[3] = (byte) (len >>> 8);
            h[4] = (byte) len;
            copyIn(pos, h, 0, HEADER_SIZE);
            copyIn(pos + HEADER_SIZE, src, off, len);
        }
        tail = pos + needed;
        entriesByType[type]++;
        entries++;
        return true;
    }

    /** Drops the oldest entry; the caller releases the chunks it leaves behind. */
    private void evictOldest() {
        int type = readByte(head);
        int len = readLength(head);
        head += HEADER_SIZE + len;
        entriesByType[type]--;
        entries--;
        stats.evicted(type);
    }

    /**
     * Moves whole entries, oldest first, into {@code dst} (payloads only, back to back) while they fit, adding the
     * type of each entry taken to {@code taken}. Stops before {@code softLimit} bytes unless nothing was taken yet (so
     * one large entry still goes out). Returns the number of bytes written; 0 when the ring is empty or the oldest
     * entry is larger than {@code dst} (callers size {@code dst} for the largest entry). Chunks left behind are
     * released.
     */
    synchronized int take(byte[] dst, int softLimit, TypeSequence taken) {
        long oldHead = head;
        int written = 0;
        while (tail > head) {
            long pos = head;
            byte[] chunk = chunks[slot(pos)];
            int at = (int) pos & chunkMask;
            int type;
            int len;
            if (at + HEADER_SIZE <= chunkSize) {
                type = chunk[at];
                len = ((chunk[at + 1] & 0xff) << 24) | ((chunk[at + 2] & 0xff) << 16) | ((chunk[at + 3] & 0xff) << 8)
                        | (chunk[at + 4] & 0xff);
            } else {
                type = readByte(pos);
                len = readLength(pos);
            }
            if (written + len > dst.length || (written > 0 && written + len > softLimit)) {
                break;
            }
            int payloadAt = at + HEADER_SIZE;
            if (payloadAt + len <= chunkSize) {
                System.arraycopy(chunk, payloadAt, dst, written, len);
            } else {
                copyOut(pos + HEADER_SIZE, dst, written, len);
            }
            written += len;
            head = pos + HEADER_SIZE + len;
            entriesByType[type]--;
            entries--;
            taken.add(type);
        }
        if (head != oldHead) {
            releaseConsumed(oldHead);
        }
        return written;
    }

    synchronized int take(byte[] dst, TypeSequence taken) {
        return take(dst, dst.length, taken);
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

    /**
     * Bytes of the chunks allocated since the ring was made (not spares taken again): tests subtract them from what
     * the reporter thread allocates.
     */
    synchronized long chunkBytesAllocated() {
        return chunksAllocated * chunkSize;
    }

    /** Chunks holding buffered bytes (or about to: the one under the write position), not counting the spares. */
    synchronized int chunksHeld() {
        return chunksHeld;
    }

    /** Released chunks kept for reuse. */
    synchronized int spareChunks() {
        return spareCount;
    }

    /** Bytes of the chunks held and the spares: what the ring keeps reachable right now. */
    public synchronized long residentBytes() {
        return (long) (chunksHeld + spareCount) * chunkSize;
    }

    /**
     * Gives back the spares the period since the last call did not need: keeps as many as the most chunks held at
     * once during it, plus one, less those held now. Called by the reporter thread about once a second.
     */
    synchronized void trimSpares() {
        int keep = Math.max(0, peakHeld + 1 - chunksHeld);
        while (spareCount > keep) {
            spares[--spareCount] = null;
        }
        peakHeld = chunksHeld;
    }

    private int slot(long pos) {
        return (int) (pos >>> chunkShift) & slotMask;
    }

    /** The chunk of {@code pos}, taking a spare or allocating one when the writer first reaches it. */
    private byte[] writableChunk(long pos) {
        int slot = slot(pos);
        byte[] chunk = chunks[slot];
        if (chunk == null) {
            if (spareCount > 0) {
                chunk = spares[--spareCount];
                spares[spareCount] = null;
            } else {
                chunk = new byte[chunkSize];
                chunksAllocated++;
            }
            chunks[slot] = chunk;
            if (++chunksHeld > peakHeld) {
                peakHeld = chunksHeld;
            }
        }
        return chunk;
    }

    /**
     * After {@code head} moved on from {@code oldHead}: releases every chunk wholly behind it, and the chunk under it
     * too when the ring is empty (the writer takes a spare again when it gets there).
     */
    private void releaseConsumed(long oldHead) {
        long first = oldHead >>> chunkShift;
        long end = head >>> chunkShift;
        if (head == tail) {
            end++;
        }
        for (long n = first; n < end; n++) {
            int slot = (int) n & slotMask;
            byte[] chunk = chunks[slot];
            if (chunk != null) {
                chunks[slot] = null;
                chunksHeld--;
                spares[spareCount++] = chunk;
            }
        }
    }

    private int readByte(long pos) {
        return chunks[slot(pos)][(int) pos & chunkMask];
    }

    private int readLength(long pos) {
        return ((readByte(pos + 1) & 0xff) << 24) | ((readByte(pos + 2) & 0xff) << 16)
                | ((readByte(pos + 3) & 0xff) << 8) | (readByte(pos + 4) & 0xff);
    }

    private void copyIn(long pos, byte[] src, int off, int len) {
        while (len > 0) {
            byte[] chunk = writableChunk(pos);
            int at = (int) pos & chunkMask;
            int n = Math.min(len, chunkSize - at);
            System.arraycopy(src, off, chunk, at, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    private void copyOut(long pos, byte[] dst, int off, int len) {
        while (len > 0) {
            byte[] chunk = chunks[slot(pos)];
            int at = (int) pos & chunkMask;
            int n = Math.min(len, chunkSize - at);
            System.arraycopy(chunk, at, dst, off, n);
            pos += n;
            off += n;
            len -= n;
        }
    }
}
