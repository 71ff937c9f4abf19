package dev.apmagent.pool;

import java.util.concurrent.atomic.AtomicLong;

import org.jctools.queues.atomic.MpmcAtomicArrayQueue;

/**
 * Strategy {@code thread_local} (the default): a tiny per-thread cache in front of a shared lock-free depot, with
 * objects moved between the two in batches ("magazines", after Bonwick and Adams' slab allocator).
 *
 * <h2>Why batches</h2>
 * Transactions and spans are acquired on application threads but released on the reporter thread, after it has
 * serialized them. A plain per-thread pool (what the Elastic agent tried and shelved) therefore fills up on the
 * reporter thread and stays empty on request threads, and a shared queue costs one CAS per acquire and per release on
 * a line every thread contends for. Here each thread keeps two magazines (arrays of {@code batchSize} objects):
 * <ul>
 *   <li>acquire pops from the loaded magazine; when it and the spare one are empty the thread takes a <em>full</em>
 *   magazine from the shared depot ({@link MpmcAtomicArrayQueue} of magazines) with ONE atomic operation and hands its spare
 *   empty magazine to a depot of empty magazines;</li>
 *   <li>release pushes into the loaded magazine; when it and the spare one are full, the thread publishes a full
 *   magazine to the depot with ONE atomic operation and takes an empty one (allocating a magazine only when none is
 *   left).</li>
 * </ul>
 * So the reporter thread's release path costs one plain array store per object plus one CAS per {@code batchSize}
 * objects, and so does the application thread's acquire path; a thread that both acquires and releases (synchronous
 * recycling, dropped events) works on its own magazines without touching shared state at all. Keeping two magazines
 * (loaded and spare, each either full or empty when swapped) stops a thread that hovers at a magazine boundary from
 * moving a magazine on every call.
 *
 * <h2>Virtual threads</h2>
 * On JDK 21+ a virtual thread never gets a cache (detected by {@link VirtualThreads}, resolved once): it acquires from
 * and releases to a shared queue of single objects, refilled from the depot a magazine at a time, and falls back to the
 * depot when that queue is empty. A million virtual threads therefore cost the pool nothing.
 *
 * <h2>Bounds</h2>
 * The shared tier holds at most {@link #sharedCapacity()} objects: {@code capacity / batchSize} full magazines plus a
 * single-object queue of {@code capacity} slots (both rounded up to powers of two by JCTools). Each platform thread
 * that used the pool caches at most {@code 2 * batchSize} more. Objects released while the depot is full are left to
 * the garbage collector and counted ({@link #droppedCount()}). A thread's cache lives in a {@link ThreadLocal} value
 * only reachable from that thread: when the thread dies, the cache and the objects in it become garbage with it, so
 * caches of dead threads cannot accumulate (those objects are lost to the pool, not leaked). Empty magazines are kept
 * in a bounded depot too; a magazine that finds it full is dropped.
 */
public final class ThreadLocalObjectPool<T> implements ObjectPool<T> {

    private final Allocator<T> allocator;
    private final int batchSize;
    private final MpmcAtomicArrayQueue<Magazine> fullMagazines;
    private final MpmcAtomicArrayQueue<Magazine> emptyMagazines;
    private final MpmcAtomicArrayQueue<T> singles;
    private final ThreadLocal<Cache> caches = new ThreadLocal<Cache>();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong threadCaches = new AtomicLong();

    /**
     * @param capacity  objects the shared tier keeps in full magazines (and, again, in the single-object queue used by
     *                  virtual threads)
     * @param batchSize objects per magazine, also half of what a platform thread caches
     */
    public ThreadLocalObjectPool(int capacity, int batchSize, Allocator<T> allocator) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
        this.allocator = allocator;
        this.batchSize = batchSize;
        int magazines = Math.max(2, capacity / batchSize);
        this.fullMagazines = new MpmcAtomicArrayQueue<Magazine>(magazines);
        this.emptyMagazines = new MpmcAtomicArrayQueue<Magazine>(magazines);
        this.singles = new MpmcAtomicArrayQueue<T>(Math.max(2, capacity));
    }

    @Override
    public T acquire() {
        if (VirtualThreads.isCurrentVirtual()) {
            return acquireShared();
        }
        Cache cache = cache();
        Magazine loaded = cache.loaded;
        if (loaded.size > 0) {
            return pop(loaded);
        }
        Magazine spare = cache.spare;
        if (spare.size > 0) {
            cache.loaded = spare;
            cache.spare = loaded;
            return pop(spare);
        }
        // both empty: take a full magazine (one CAS) and give one empty magazine back to the depot
        Magazine full = fullMagazines.poll();
        if (full != null) {
            cache.loaded = full;
            if (!emptyMagazines.offer(spare)) {
                // depot of empty magazines is full: this one becomes garbage
            }
            cache.spare = loaded;
            return pop(full);
        }
        T single = singles.poll();
        if (single != null) {
            return single;
        }
        return create();
    }

    @Override
    public void release(T object) {
        if (VirtualThreads.isCurrentVirtual()) {
            releaseShared(object);
            return;
        }
        Cache cache = cache();
        Magazine loaded = cache.loaded;
        if (loaded.size < batchSize) {
            push(loaded, object);
            return;
        }
        Magazine spare = cache.spare;
        if (spare.size == 0) {
            cache.loaded = spare;
            cache.spare = loaded;
            push(spare, object);
            return;
        }
        // both full: publish the spare (one CAS), the loaded one becomes the spare, continue in an empty magazine
        if (!fullMagazines.offer(spare)) {
            dropped.incrementAndGet();
            return;
        }
        Magazine empty = emptyMagazines.poll();
        if (empty == null) {
            empty = new Magazine(batchSize);
        }
        cache.spare = loaded;
        cache.loaded = empty;
        push(empty, object);
    }

    private T acquireShared() {
        T object = singles.poll();
        if (object != null) {
            return object;
        }
        Magazine full = fullMagazines.poll();
        if (full != null) {
            object = pop(full);
            while (full.size > 0) {
                if (!singles.offer(pop(full))) {
                    dropped.incrementAndGet();
                }
            }
            emptyMagazines.offer(full);
            return object;
        }
        return create();
    }

    private void releaseShared(T object) {
        if (!singles.offer(object)) {
            dropped.incrementAndGet();
        }
    }

    private Cache cache() {
        Cache cache = caches.get();
        if (cache == null) {
            cache = new Cache(batchSize);
            caches.set(cache);
            threadCaches.incrementAndGet();
        }
        return cache;
    }

    private T create() {
        created.incrementAndGet();
        return allocator.create();
    }

    @SuppressWarnings("unchecked")
    private T pop(Magazine magazine) {
        int i = --magazine.size;
        Object object = magazine.items[i];
        magazine.items[i] = null;
        return (T) object;
    }

    private static void push(Magazine magazine, Object object) {
        magazine.items[magazine.size++] = object;
    }

    @Override
    public long createdCount() {
        return created.get();
    }

    @Override
    public long droppedCount() {
        return dropped.get();
    }

    /** Objects in full magazines of the depot plus the single-object queue; per-thread caches are not counted. */
    @Override
    public int sharedCount() {
        return fullMagazines.size() * batchSize + singles.size();
    }

    @Override
    public int sharedCapacity() {
        return fullMagazines.capacity() * batchSize + singles.capacity();
    }

    /** Thread caches created so far (one per platform thread that used this pool; never one for a virtual thread). */
    public long threadCacheCount() {
        return threadCaches.get();
    }

    /** Objects each platform thread caches at most. */
    public int threadCacheCapacity() {
        return 2 * batchSize;
    }

    public int batchSize() {
        return batchSize;
    }

    /** A batch of objects; owned by one thread at a time (the depot's queues give the hand-over its happens-before). */
    static final class Magazine {
        final Object[] items;
        int size;

        Magazine(int batchSize) {
            items = new Object[batchSize];
        }
    }

    /** A platform thread's two magazines; only that thread reads or writes it. */
    static final class Cache {
        Magazine loaded;
        Magazine spare;

        Cache(int batchSize) {
            loaded = new Magazine(batchSize);
            spare = new Magazine(batchSize);
        }
    }
}
