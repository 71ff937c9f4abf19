package dev.apmagent.pool;

/**
 * A pool of reusable objects. {@link #acquire()} never returns null (it allocates when the pool is empty);
 * {@link #release(Object)} takes an object that its owner has already reset and keeps it unless the pool is at its
 * ceiling, in which case the object is left to the garbage collector and counted. Both are lock-free, never block and
 * never throw. The strategy is chosen by the {@code object_pool} option, see {@link ObjectPools}.
 *
 * @param <T> the pooled type
 */
public interface ObjectPool<T> {

    /** An object to use: a pooled one, or a new one when the pool has none at hand. */
    T acquire();

    /** Gives back an object that is reset and referenced by nobody. Releasing the same object twice is a defect. */
    void release(T object);

    /** Objects this pool allocated so far. */
    long createdCount();

    /** Released objects this pool could not keep because it was at its ceiling. */
    long droppedCount();

    /** Objects currently held in the shared tier (approximate under concurrency; thread caches are not counted). */
    int sharedCount();

    /** Objects the shared tier can hold at most; see the implementation for the per-thread part. */
    int sharedCapacity();

    /** Creates new instances when the pool is empty. */
    interface Allocator<T> {
        T create();
    }
}
