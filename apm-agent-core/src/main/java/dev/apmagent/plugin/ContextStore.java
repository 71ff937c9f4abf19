package dev.apmagent.plugin;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Attaches state to library objects (a statement's SQL, a connection's address, a task's trace context): a bounded map
 * from objects, compared by identity and held weakly, to values; lock-free for readers and writers. It adds no field
 * to the library's classes, so it works the same for classes transformed as they load and for classes retransformed
 * after a runtime attach (which cannot add fields).
 *
 * <h2>Design</h2>
 * <ul>
 *   <li>A fixed array of buckets (never resized, so no rehash pause); each bucket holds an immutable chain of
 *   entries, replaced as a whole by CAS. {@link #get} walks one chain and allocates nothing.</li>
 *   <li>Each entry is a {@link WeakReference} to its key. Entries are meant to be removed explicitly when the key is
 *   closed ({@link #remove}); removal also {@link WeakReference#clear() clears} the reference, so the garbage collector
 *   never has to process it. Keys that are never removed (statements the application never closes) are collected
 *   normally; their cleared entries are dropped from a chain whenever that chain is written, and by a full sweep when
 *   the map is full. No {@code ReferenceQueue}: its {@code poll()} takes a lock whenever the collector enqueued
 *   something, and nothing here may block an application thread.</li>
 *   <li>Bounded: at {@code maxSize} live entries new keys are rejected and counted ({@link #rejected()}); the caller
 *   then works without the value. A full map first tries one sweep of cleared entries (at most one sweep per
 *   {@value #SWEEP_EVERY} rejections, so a map full of live keys never makes every insert pay for a sweep).</li>
 * </ul>
 * Removing an entry from the middle of a chain copies the entries before it (chains are short: the JDBC maps have a
 * bucket for every four entries at most).
 */
public final class ContextStore<V> {

    static final int SWEEP_EVERY = 256;

    private final AtomicReferenceArray<Entry<V>> buckets;
    private final int mask;
    private final int maxSize;
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger sweeping = new AtomicInteger();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong sweeps = new AtomicLong();

    /**
     * @param maxSize    live entries at most
     * @param bucketBits log2 of the number of buckets
     */
    public ContextStore(int maxSize, int bucketBits) {
        if (maxSize < 1 || bucketBits < 1 || bucketBits > 24) {
            throw new IllegalArgumentException("maxSize " + maxSize + ", bucketBits " + bucketBits);
        }
        this.maxSize = maxSize;
        this.buckets = new AtomicReferenceArray<Entry<V>>(1 << bucketBits);
        this.mask = (1 << bucketBits) - 1;
    }

    private static int hash(Object key) {
        int h = System.identityHashCode(key);
        return h ^ (h >>> 16);
    }

    /** The value of {@code key}, or null. Lock-free; allocates nothing. */
    public V get(Object key) {
        if (key == null) {
            return null;
        }
        int h = hash(key);
        for (Entry<V> e = buckets.get(h & mask); e != null; e = e.next) {
            if (e.hash == h && e.get() == key) {
                return e.value;
            }
        }
        return null;
    }

    /**
     * Maps {@code key} to {@code value}, replacing any other value; false when the map is full (counted). Mapping a key
     * to the value it has already writes nothing and allocates nothing.
     */
    public boolean put(Object key, V value) {
        return put(key, value, false);
    }

    /** Maps {@code key} to {@code value} unless it has a value already; false when it had one or the map is full. */
    public boolean putIfAbsent(Object key, V value) {
        return put(key, value, true);
    }

    private boolean put(Object key, V value, boolean onlyIfAbsent) {
        if (key == null || value == null) {
            return false;
        }
        int h = hash(key);
        int i = h & mask;
        boolean swept = false;
        while (true) {
            Entry<V> head = buckets.get(i);
            Entry<V> existing = find(head, key, h);
            if (existing != null && onlyIfAbsent) {
                return false;
            }
            if (existing != null && value.equals(existing.value)) {
                return true; // a driver's prepareStatement overloads calling each other map the same statement again
            }
            if (existing == null && size.get() >= maxSize) {
                long n = rejected.getAndIncrement();
                if (!swept && n % SWEEP_EVERY == 0 && sweep()) {
                    swept = true;
                    rejected.decrementAndGet();
                    continue;
                }
                return false;
            }
            Entry<V> rest = without(head, existing);
            Entry<V> fresh = new Entry<V>(key, h, value, rest);
            if (buckets.compareAndSet(i, head, fresh)) {
                // the fresh entry joins; the replaced entry and the cleared ones dropped from the chain leave
                int delta = 1 - dropped(head, rest);
                if (delta != 0) {
                    size.addAndGet(delta);
                }
                if (existing != null) {
                    existing.clear();
                }
                return true;
            }
        }
    }

    /** Removes {@code key}; returns its value or null. */
    public V remove(Object key) {
        if (key == null) {
            return null;
        }
        int h = hash(key);
        int i = h & mask;
        while (true) {
            Entry<V> head = buckets.get(i);
            Entry<V> existing = find(head, key, h);
            if (existing == null) {
                return null;
            }
            Entry<V> rest = without(head, existing);
            if (buckets.compareAndSet(i, head, rest)) {
                size.addAndGet(-dropped(head, rest));
                existing.clear();
                return existing.value;
            }
        }
    }

    /**
     * Drops the entries of collected keys from every bucket; true when something was dropped. One sweeper at a time;
     * a bucket whose CAS is lost to a concurrent writer is skipped (that writer prunes it).
     */
    boolean sweep() {
        if (!sweeping.compareAndSet(0, 1)) {
            return false;
        }
        try {
            sweeps.incrementAndGet();
            int total = 0;
            for (int i = 0; i <= mask; i++) {
                Entry<V> head = buckets.get(i);
                if (head == null) {
                    continue;
                }
                Entry<V> rest = without(head, null);
                int dropped = dropped(head, rest);
                if (dropped > 0 && buckets.compareAndSet(i, head, rest)) {
                    size.addAndGet(-dropped);
                    total += dropped;
                }
            }
            return total > 0;
        } finally {
            sweeping.set(0);
        }
    }

    private static <V> Entry<V> find(Entry<V> head, Object key, int h) {
        for (Entry<V> e = head; e != null; e = e.next) {
            if (e.hash == h && e.get() == key) {
                return e;
            }
        }
        return null;
    }

    /**
     * How many entries of the chain {@code head} are not in {@code rest}, a chain {@link #without} built from it.
     * Counted from the two immutable chains rather than predicted, because the collector may clear more keys while
     * {@code without} runs.
     */
    private static <V> int dropped(Entry<V> head, Entry<V> rest) {
        if (head == rest) {
            return 0;
        }
        return length(head) - length(rest);
    }

    private static <V> int length(Entry<V> e) {
        int n = 0;
        for (; e != null; e = e.next) {
            n++;
        }
        return n;
    }

    /**
     * The chain without {@code target} and without cleared entries: the tail after the last dropped entry is shared,
     * the kept entries before it are copied in front of it (in reverse order; order within a chain does not matter).
     * Each kept key is held strongly while it is copied, so none is lost. Iterative: no chain length can overflow the
     * stack.
     */
    private static <V> Entry<V> without(Entry<V> head, Entry<V> target) {
        Entry<V> lastDropped = null;
        for (Entry<V> e = head; e != null; e = e.next) {
            if (e == target || e.get() == null) {
                lastDropped = e;
            }
        }
        if (lastDropped == null) {
            return head;
        }
        Entry<V> rest = lastDropped.next;
        for (Entry<V> e = head; e != lastDropped; e = e.next) {
            Object key = e.get();
            if (e != target && key != null) {
                rest = new Entry<V>(key, e.hash, e.value, rest);
            }
        }
        return rest;
    }

    /** Live entries plus cleared ones not yet dropped. */
    public int size() {
        return size.get();
    }

    public int maxSize() {
        return maxSize;
    }

    /** Inserts refused because the map was full. */
    public long rejected() {
        return rejected.get();
    }

    /** Full sweeps run. */
    long sweeps() {
        return sweeps.get();
    }

    static final class Entry<V> extends WeakReference<Object> {
        final int hash;
        final V value;
        final Entry<V> next;

        Entry(Object key, int hash, V value, Entry<V> next) {
            super(key);
            this.hash = hash;
            this.value = value;
            this.next = next;
        }
    }
}
