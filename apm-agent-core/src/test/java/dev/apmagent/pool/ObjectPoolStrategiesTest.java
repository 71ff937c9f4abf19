package dev.apmagent.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ObjectPoolStrategiesTest {

    static final class Thing {
    }

    private static final ObjectPool.Allocator<Thing> NEW_THING = new ObjectPool.Allocator<Thing>() {
        @Override
        public Thing create() {
            return new Thing();
        }
    };

    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue"})
    void pooledStrategiesHandBackWhatWasReleased(String strategy) {
        ObjectPool<Thing> pool = ObjectPools.factory(strategy).create("thing", 64, 4, NEW_THING);
        Thing a = pool.acquire();
        assertNotNull(a);
        assertEquals(1, pool.createdCount());
        pool.release(a);
        assertSame(a, pool.acquire());
        assertEquals(1, pool.createdCount());
        Thing b = pool.acquire();
        assertNotSame(a, b);
        assertEquals(2, pool.createdCount());
    }

    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue"})
    void releasesBeyondTheCeilingAreDroppedAndCounted(String strategy) {
        ObjectPool<Thing> pool = ObjectPools.factory(strategy).create("thing", 16, 4, NEW_THING);
        int n = 1000;
        Thing[] things = new Thing[n];
        for (int i = 0; i < n; i++) {
            things[i] = pool.acquire();
        }
        for (int i = 0; i < n; i++) {
            pool.release(things[i]);
        }
        assertTrue(pool.droppedCount() > 0);
        assertTrue(pool.sharedCount() <= pool.sharedCapacity(), pool.sharedCount() + " > " + pool.sharedCapacity());
        int perThread = pool instanceof ThreadLocalObjectPool ? ((ThreadLocalObjectPool<Thing>) pool).threadCacheCapacity() : 0;
        // everything released is either kept (shared tier or this thread's cache) or counted as dropped
        assertTrue(pool.sharedCount() + perThread + pool.droppedCount() >= n);
        assertTrue(pool.droppedCount() >= n - pool.sharedCapacity() - perThread);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 100})
    void noneAllocatesEveryTime(int n) {
        ObjectPool<Thing> pool = ObjectPools.factory("none").create("thing", 64, 4, NEW_THING);
        Thing previous = null;
        for (int i = 0; i < n; i++) {
            Thing t = pool.acquire();
            assertNotSame(previous, t);
            pool.release(t);
            previous = t;
        }
        assertEquals(n, pool.createdCount());
        assertEquals(0, pool.sharedCount());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "threadlocal", "QUEUE"})
    void unknownStrategyIsRejected(String strategy) {
        assertThrows(IllegalArgumentException.class, () -> ObjectPools.factory(strategy));
    }
}
