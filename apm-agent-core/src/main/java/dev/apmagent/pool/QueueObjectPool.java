package dev.apmagent.pool;

import java.util.concurrent.atomic.AtomicLong;

import org.jctools.queues.atomic.MpmcAtomicArrayQueue;

/**
 * Strategy {@code queue}: one shared JCTools {@link MpmcAtomicArrayQueue}; one CAS per acquire and per release, whatever
 * thread does them. Holds at most {@link #sharedCapacity()} objects (the capacity rounded up to a power of two); no
 * per-thread state, so it costs virtual threads nothing.
 */
public final class QueueObjectPool<T> implements ObjectPool<T> {

    private final Allocator<T> allocator;
    private final MpmcAtomicArrayQueue<T> queue;
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    public QueueObjectPool(int capacity, Allocator<T> allocator) {
        this.allocator = allocator;
        this.queue = new MpmcAtomicArrayQueue<T>(Math.max(2, capacity));
    }

    @Override
    public T acquire() {
        T object = queue.poll();
        if (object != null) {
            return object;
        }
        created.incrementAndGet();
        return allocator.create();
    }

    @Override
    public void release(T object) {
        if (!queue.offer(object)) {
            dropped.incrementAndGet();
        }
    }

    @Override
    public long createdCount() {
        return created.get();
    }

    @Override
    public long droppedCount() {
        return dropped.get();
    }

    @Override
    public int sharedCount() {
        return queue.size();
    }

    @Override
    public int sharedCapacity() {
        return queue.capacity();
    }
}
