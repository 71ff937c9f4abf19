package dev.apmagent.benchmark.pool;

import dev.apmagent.pool.ObjectPool;
import dev.apmagent.pool.ObjectPools;

/** The pool strategies the pool benchmarks compare, by the name their {@code strategy} parameter uses. */
public final class BenchmarkPools {

    /** Core strategies, named as the {@code object_pool} option names them. */
    public static final String THREAD_LOCAL = ObjectPools.THREAD_LOCAL;
    public static final String QUEUE = ObjectPools.QUEUE;
    public static final String NONE = ObjectPools.NONE;
    /** Comparison only: {@link ReturnToOriginPool} over {@code MpscLinkedQueue}. */
    public static final String MPSC_LINKED = "mpsc_linked";
    /** Comparison only: {@link ReturnToOriginPool} over {@code MpscUnboundedArrayQueue}. */
    public static final String MPSC_CHUNKED = "mpsc_chunked";

    /** Objects per magazine of the thread_local strategy: the tracer's span batch. */
    public static final int BATCH = 16;

    private static final ObjectPool.Allocator<PooledEvent> ALLOCATOR = new ObjectPool.Allocator<PooledEvent>() {
        @Override
        public PooledEvent create() {
            return new PooledEvent();
        }
    };

    private BenchmarkPools() {
    }

    /**
     * @param capacity the shared tier's capacity (the tracer uses 2 × max_queue_size); per thread for the
     *                 return-to-origin pools
     */
    public static ObjectPool<PooledEvent> create(String strategy, int capacity) {
        if (MPSC_LINKED.equals(strategy)) {
            return new ReturnToOriginPool(true, capacity, ALLOCATOR);
        }
        if (MPSC_CHUNKED.equals(strategy)) {
            return new ReturnToOriginPool(false, capacity, ALLOCATOR);
        }
        return ObjectPools.factory(strategy).create("benchmark-event", capacity, BATCH, ALLOCATOR);
    }
}
