package dev.apmagent.pool;

import java.util.concurrent.atomic.AtomicLong;

/** Strategy {@code none}: every acquire allocates, released objects are left to the garbage collector. */
public final class AllocatingObjectPool<T> implements ObjectPool<T> {

    private final Allocator<T> allocator;
    private final AtomicLong created = new AtomicLong();

    public AllocatingObjectPool(Allocator<T> allocator) {
        this.allocator = allocator;
    }

    @Override
    public T acquire() {
        created.incrementAndGet();
        return allocator.create();
    }

    @Override
    public void release(T object) {
        // nothing kept: the object becomes garbage
    }

    @Override
    public long createdCount() {
        return created.get();
    }

    @Override
    public long droppedCount() {
        return 0;
    }

    @Override
    public int sharedCount() {
        return 0;
    }

    @Override
    public int sharedCapacity() {
        return 0;
    }
}
