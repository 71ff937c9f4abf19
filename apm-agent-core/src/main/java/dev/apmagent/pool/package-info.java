/**
 * Object pools behind one {@link dev.apmagent.pool.ObjectPool} interface, one strategy per value of the
 * {@code object_pool} option ({@link dev.apmagent.pool.ObjectPools}): thread-local magazines in front of a shared JCTools
 * depot (default), one shared JCTools queue, or plain allocation; plus virtual-thread detection. Pools know nothing of
 * what they hold: resetting objects and reference counting belong to their owners (dev.apmagent.trace), and nothing
 * here blocks, locks, logs or grows without a bound.
 */
package dev.apmagent.pool;
