package dev.apmagent.pool;

/**
 * The three pooling strategies of the {@code object_pool} option:
 * <ul>
 *   <li>{@value #THREAD_LOCAL} (default): {@link ThreadLocalObjectPool}, a per-thread cache of two small batches in front
 *   of a shared lock-free queue of full batches; virtual threads bypass the per-thread cache;</li>
 *   <li>{@value #QUEUE}: {@link QueueObjectPool}, one shared JCTools MPMC queue, one CAS per acquire and release;</li>
 *   <li>{@value #NONE}: {@link AllocatingObjectPool}, allocate every time, release nothing.</li>
 * </ul>
 */
public final class ObjectPools {

    public static final String THREAD_LOCAL = "thread_local";
    public static final String QUEUE = "queue";
    public static final String NONE = "none";

    private static final ObjectPoolFactory THREAD_LOCAL_FACTORY = new ObjectPoolFactory() {
        @Override
        public <T> ObjectPool<T> create(String name, int capacity, int batchSize, ObjectPool.Allocator<T> allocator) {
            return new ThreadLocalObjectPool<T>(capacity, batchSize, allocator);
        }
    };
    private static final ObjectPoolFactory QUEUE_FACTORY = new ObjectPoolFactory() {
        @Override
        public <T> ObjectPool<T> create(String name, int capacity, int batchSize, ObjectPool.Allocator<T> allocator) {
            return new QueueObjectPool<T>(capacity, allocator);
        }
    };
    private static final ObjectPoolFactory NONE_FACTORY = new ObjectPoolFactory() {
        @Override
        public <T> ObjectPool<T> create(String name, int capacity, int batchSize, ObjectPool.Allocator<T> allocator) {
            return new AllocatingObjectPool<T>(allocator);
        }
    };

    private ObjectPools() {
    }

    /**
     * The factory of a strategy named as the {@code object_pool} option names it.
     *
     * @throws IllegalArgumentException for an unknown name (the option's parser already rejects those)
     */
    public static ObjectPoolFactory factory(String strategy) {
        if (THREAD_LOCAL.equals(strategy)) {
            return THREAD_LOCAL_FACTORY;
        }
        if (QUEUE.equals(strategy)) {
            return QUEUE_FACTORY;
        }
        if (NONE.equals(strategy)) {
            return NONE_FACTORY;
        }
        throw new IllegalArgumentException("unknown object_pool strategy '" + strategy + "', expected one of "
                + THREAD_LOCAL + ", " + QUEUE + ", " + NONE);
    }
}
