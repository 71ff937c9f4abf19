package dev.apmagent.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The shared path virtual threads take through the thread_local pool (JDK 25 execution only). */
@Tag("jdk25")
class ThreadLocalObjectPoolVirtualThreadTest {

    static final class Thing {
    }

    private static void runOnVirtualThread(Runnable task) throws Exception {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Thread thread = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
                .invoke(builder, task);
        thread.join();
    }

    @Test
    void virtualThreadsUseTheSharedTierAndRefillItFromFullMagazines() throws Exception {
        int batch = 4;
        ThreadLocalObjectPool<Thing> pool = new ThreadLocalObjectPool<>(64, batch, Thing::new);
        // a platform thread (the reporter) releases enough to publish full magazines
        List<Thing> things = new ArrayList<>();
        for (int i = 0; i < 6 * batch; i++) {
            things.add(pool.acquire());
        }
        for (Thing t : things) {
            pool.release(t);
        }
        int shared = pool.sharedCount();
        assertEquals(4 * batch, shared, "four full magazines published, two kept by this thread");

        AtomicBoolean virtual = new AtomicBoolean();
        AtomicReference<Thing> acquired = new AtomicReference<>();
        runOnVirtualThread(() -> {
            virtual.set(VirtualThreads.isCurrentVirtual());
            acquired.set(pool.acquire()); // takes a full magazine: one object out, the rest moved to the single queue
        });
        assertTrue(virtual.get());
        assertEquals(things.size(), pool.createdCount(), "served from the depot, nothing allocated");
        assertEquals(shared - 1, pool.sharedCount(), "the rest of the magazine stays shared");
        assertEquals(1, pool.threadCacheCount(), "only the platform thread has a cache");

        Set<Thing> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        runOnVirtualThread(() -> {
            pool.release(acquired.get());
            for (int i = 0; i < shared; i++) {
                seen.add(pool.acquire());
            }
        });
        assertEquals(shared, seen.size(), "every shared object handed out once");
        assertTrue(things.containsAll(seen));
        assertEquals(things.size(), pool.createdCount());
        assertEquals(1, pool.threadCacheCount());
    }
}
