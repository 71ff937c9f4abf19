package dev.apmagent.pool;

import java.util.ArrayList;
import java.util.List;

/** Wraps every pool of a strategy in a {@link BookkeepingObjectPool}; {@link #assertAllReturned()} checks them all. */
public final class BookkeepingObjectPoolFactory implements ObjectPoolFactory {

    private final ObjectPoolFactory delegate;
    private final List<BookkeepingObjectPool<?>> pools = new ArrayList<>();

    public BookkeepingObjectPoolFactory(ObjectPoolFactory delegate) {
        this.delegate = delegate;
    }

    /** Bookkeeping over the strategy named as the {@code object_pool} option names it. */
    public static BookkeepingObjectPoolFactory of(String strategy) {
        return new BookkeepingObjectPoolFactory(ObjectPools.factory(strategy));
    }

    @Override
    public synchronized <T> ObjectPool<T> create(String name, int capacity, int batchSize, ObjectPool.Allocator<T> allocator) {
        BookkeepingObjectPool<T> pool = new BookkeepingObjectPool<>(name, delegate.create(name, capacity, batchSize, allocator));
        pools.add(pool);
        return pool;
    }

    public synchronized List<BookkeepingObjectPool<?>> pools() {
        return new ArrayList<>(pools);
    }

    /** Whether any pool has {@code object} out. */
    public synchronized boolean isInUse(Object object) {
        for (BookkeepingObjectPool<?> pool : pools) {
            if (pool.isInUse(object)) {
                return true;
            }
        }
        return false;
    }

    /** Fails when any pool recorded a defect or has an object still out. */
    public synchronized void assertAllReturned() {
        List<String> problems = new ArrayList<>();
        for (BookkeepingObjectPool<?> pool : pools) {
            try {
                pool.assertAllReturned();
            } catch (AssertionError e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(String.join("; ", problems));
        }
    }
}
