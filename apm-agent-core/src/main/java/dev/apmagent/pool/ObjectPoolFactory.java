package dev.apmagent.pool;

/** Creates the pools of one strategy; the tracer asks it once per pooled type. Tests wrap it to add bookkeeping. */
public interface ObjectPoolFactory {

    /**
     * @param name         what is pooled (diagnostics), e.g. "span"
     * @param capacity     objects the shared tier keeps at most
     * @param batchSize    objects moved between a thread cache and the shared tier at once (thread_local strategy)
     * @param allocator    creates new instances
     */
    <T> ObjectPool<T> create(String name, int capacity, int batchSize, ObjectPool.Allocator<T> allocator);
}
