package dev.apmagent.pool;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Test wrapper around any pool that remembers which objects are out: it records an error when an object is handed
 * out while still in use, or released when it is not out (a double recycle, or an object the pool never gave out), and
 * {@link #assertAllReturned()} fails when an object was never given back. Synchronized: for tests only.
 */
public final class BookkeepingObjectPool<T> implements ObjectPool<T> {

    private final String name;
    private final ObjectPool<T> delegate;
    private final Set<T> inUse = Collections.newSetFromMap(new IdentityHashMap<T, Boolean>());
    private final List<String> errors = new ArrayList<>();
    private long acquired;
    private long released;

    public BookkeepingObjectPool(String name, ObjectPool<T> delegate) {
        this.name = name;
        this.delegate = delegate;
    }

    @Override
    public T acquire() {
        T object = delegate.acquire();
        synchronized (this) {
            acquired++;
            if (!inUse.add(object)) {
                errors.add(name + " " + describe(object) + " handed out again while still in use");
            }
        }
        return object;
    }

    @Override
    public void release(T object) {
        synchronized (this) {
            if (!inUse.remove(object)) {
                errors.add(name + " " + describe(object) + " released but not in use (double recycle or foreign object)");
                return;
            }
            released++;
        }
        delegate.release(object);
    }

    /** Whether {@code object} was acquired and not released yet. */
    public synchronized boolean isInUse(Object object) {
        return inUse.contains(object);
    }

    public synchronized int inUseCount() {
        return inUse.size();
    }

    public synchronized long acquiredCount() {
        return acquired;
    }

    public synchronized long releasedCount() {
        return released;
    }

    public synchronized List<String> errors() {
        return new ArrayList<>(errors);
    }

    /** Fails when a defect was recorded or an object is still out. */
    public synchronized void assertAllReturned() {
        List<String> problems = new ArrayList<>(errors);
        for (T object : inUse) {
            problems.add(name + " " + describe(object) + " never returned");
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(problems.size() + " pool defect(s): " + problems);
        }
    }

    /** Forgets recorded defects (for tests that provoke one on purpose). */
    public synchronized void clearErrors() {
        errors.clear();
    }

    private static String describe(Object object) {
        return object.getClass().getSimpleName() + "@" + Integer.toHexString(System.identityHashCode(object));
    }

    @Override
    public long createdCount() {
        return delegate.createdCount();
    }

    @Override
    public long droppedCount() {
        return delegate.droppedCount();
    }

    @Override
    public int sharedCount() {
        return delegate.sharedCount();
    }

    @Override
    public int sharedCapacity() {
        return delegate.sharedCapacity();
    }

    public ObjectPool<T> delegate() {
        return delegate;
    }
}
