package dev.apmagent.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ThreadLocalObjectPoolTest {

    static final class Thing {
    }

    private static final ObjectPool.Allocator<Thing> NEW_THING = new ObjectPool.Allocator<Thing>() {
        @Override
        public Thing create() {
            return new Thing();
        }
    };

    private static void runOn(String name, Runnable task) throws InterruptedException {
        Thread thread = new Thread(task, name);
        thread.start();
        thread.join();
    }

    @Test
    void objectsReleasedOnAnotherThreadComeBackInMagazines() throws Exception {
        int batch = 8;
        ThreadLocalObjectPool<Thing> pool = new ThreadLocalObjectPool<>(1024, batch, NEW_THING);
        int n = 20 * batch;
        List<Thing> first = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            first.add(pool.acquire());
        }
        assertEquals(n, pool.createdCount());
        runOn("releaser", () -> {
            for (Thing t : first) {
                pool.release(t);
            }
        });
        // the releaser keeps at most two magazines; every other object was published in full magazines
        assertTrue(pool.sharedCount() >= n - 2 * batch, "shared " + pool.sharedCount());
        assertEquals(0, pool.sharedCount() % batch);
        Set<Thing> original = Collections.newSetFromMap(new IdentityHashMap<>());
        original.addAll(first);
        int reused = 0;
        for (int i = 0; i < n - 2 * batch; i++) {
            if (original.contains(pool.acquire())) {
                reused++;
            }
        }
        assertEquals(n - 2 * batch, reused);
        assertEquals(n, pool.createdCount(), "no allocation while full magazines were available");
        assertEquals(2, pool.threadCacheCount());
    }

    @Test
    void aThreadThatAcquiresAndReleasesStaysOnItsOwnMagazines() {
        ThreadLocalObjectPool<Thing> pool = new ThreadLocalObjectPool<>(1024, 4, NEW_THING);
        Thing[] held = new Thing[3];
        for (int round = 0; round < 1000; round++) {
            for (int i = 0; i < held.length; i++) {
                held[i] = pool.acquire();
            }
            for (int i = held.length - 1; i >= 0; i--) {
                pool.release(held[i]);
            }
        }
        assertEquals(3, pool.createdCount());
        assertEquals(0, pool.sharedCount(), "nothing went through the shared depot");
    }

    @Test
    void magazinesAtTheBoundaryDoNotThrash() {
        int batch = 4;
        ThreadLocalObjectPool<Thing> pool = new ThreadLocalObjectPool<>(1024, batch, NEW_THING);
        List<Thing> things = new ArrayList<>();
        for (int i = 0; i < 2 * batch; i++) {
            things.add(pool.acquire());
        }
        for (Thing t : things) {
            pool.release(t); // fills both magazines exactly
        }
        assertEquals(0, pool.sharedCount());
        for (int i = 0; i < 100; i++) {
            pool.release(pool.acquire()); // hovering at "both full" never publishes
        }
        assertEquals(0, pool.sharedCount());
        pool.release(new Thing());
        assertEquals(batch, pool.sharedCount(), "one more object publishes one full magazine");
    }

    @Test
    void cacheOfADeadThreadIsCollectedWithIt() throws Exception {
        ThreadLocalObjectPool<Thing> pool = new ThreadLocalObjectPool<>(64, 4, NEW_THING);
        List<WeakReference<Thing>> cached = new ArrayList<>();
        runOn("short-lived", () -> {
            Thing t = pool.acquire();
            cached.add(new WeakReference<>(t));
            pool.release(t); // stays in this thread's cache
        });
        assertEquals(0, pool.sharedCount());
        for (int i = 0; i < 20 && cached.get(0).get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(cached.get(0).get(), "the dead thread's cache (and what it held) must be garbage");
    }

    @Test
    void platformThreadsAreNotVirtual() {
        assertFalse(VirtualThreads.isCurrentVirtual());
        assertEquals(Runtime.version().feature() >= 21, VirtualThreads.isSupported());
    }

    @Test
    void releasedObjectIsHandedOutByTheSameThreadFirst() {
        ThreadLocalObjectPool<Thing> pool = new ThreadLocalObjectPool<>(64, 4, NEW_THING);
        Thing a = pool.acquire();
        Thing b = pool.acquire();
        pool.release(a);
        pool.release(b);
        assertSame(b, pool.acquire());
        assertSame(a, pool.acquire());
    }
}
