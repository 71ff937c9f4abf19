package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.apmagent.config.Config;
import dev.apmagent.pool.BookkeepingObjectPool;
import dev.apmagent.pool.BookkeepingObjectPoolFactory;
import dev.apmagent.pool.ObjectPoolFactory;
import dev.apmagent.pool.ObjectPools;
import dev.apmagent.pool.ThreadLocalObjectPool;
import dev.apmagent.pool.VirtualThreads;

/**
 * 100,000 virtual threads each trace a request with spans through the default (thread_local) pool: no virtual thread
 * gets a thread cache, objects are reused through the shared tier, and what the pool keeps stays under its ceiling.
 * Runs only in the Surefire execution on JDK 25 (tag {@code jdk25}); virtual threads are reached by reflection since
 * tests compile for 17.
 */
@Tag("jdk25")
class VirtualThreadPoolTest {

    private static final int THREADS = 100_000;
    private static final int SPANS = 2;

    private final BookkeepingObjectPoolFactory pools = BookkeepingObjectPoolFactory.of(ObjectPools.THREAD_LOCAL);
    private Tracer tracer;

    private static Tracer newTracer(ObjectPoolFactory pools) {
        return new Tracer(Config.ofParsed(Collections.<String, Object>emptyMap()),
                new AllocationTest.SynchronousRecyclingReporter(), pools);
    }

    private static ExecutorService newVirtualThreadPerTaskExecutor() throws Exception {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    private void traceOneRequest(boolean yieldWhileInFlight) {
        Transaction t = tracer.startRootTransaction();
        t.setName("GET /");
        tracer.activate(t);
        for (int i = 0; i < SPANS; i++) {
            Span s = tracer.createSpan();
            tracer.activate(s);
            if (yieldWhileInFlight) {
                Thread.yield(); // unmounts: many requests are in flight at once
            }
            tracer.deactivate(s);
            s.end();
        }
        tracer.deactivate(t);
        t.end();
    }

    private void runOnVirtualThreads(boolean yieldWhileInFlight) throws Exception {
        assertTrue(VirtualThreads.isSupported(), "needs JDK 21+ (runs in the jdk25 Surefire execution)");
        AtomicInteger notVirtual = new AtomicInteger();
        LongAdder done = new LongAdder();
        ExecutorService executor = newVirtualThreadPerTaskExecutor();
        for (int i = 0; i < THREADS; i++) {
            executor.execute(() -> {
                if (!VirtualThreads.isCurrentVirtual()) {
                    notVirtual.incrementAndGet();
                }
                traceOneRequest(yieldWhileInFlight);
                done.increment();
            });
        }
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.MINUTES));
        assertEquals(0, notVirtual.get());
        assertEquals(THREADS, done.sum());
    }

    private static ThreadLocalObjectPool<?> unwrap(Object pool) {
        return (ThreadLocalObjectPool<?>) ((BookkeepingObjectPool<?>) pool).delegate();
    }

    /**
     * Without bookkeeping (its monitor would make virtual threads park and pile up): tasks that never block run to
     * completion one after the other on the carriers, so a handful of objects serve all of them.
     */
    @Test
    void hundredThousandVirtualThreadsReuseAFewPooledObjects() throws Exception {
        tracer = newTracer(ObjectPools.factory(ObjectPools.THREAD_LOCAL));
        runOnVirtualThreads(false);
        ThreadLocalObjectPool<?> transactions = (ThreadLocalObjectPool<?>) tracer.transactionPool();
        ThreadLocalObjectPool<?> spans = (ThreadLocalObjectPool<?>) tracer.spanPool();
        long created = transactions.createdCount() + spans.createdCount();
        System.out.println("VirtualThreadPoolTest: " + THREADS + " virtual threads, " + THREADS * (1 + SPANS)
                + " events; created " + transactions.createdCount() + " transactions, " + spans.createdCount()
                + " spans; pooled " + transactions.sharedCount() + " + " + spans.sharedCount() + "; thread caches "
                + (transactions.threadCacheCount() + spans.threadCacheCount()));
        assertEquals(0, transactions.threadCacheCount(), "no virtual thread gets a thread cache");
        assertEquals(0, spans.threadCacheCount(), "no virtual thread gets a thread cache");
        assertTrue(created < THREADS * (1 + SPANS) / 100, "objects were reused: created " + created);
        assertTrue(transactions.sharedCount() <= transactions.sharedCapacity());
        assertTrue(spans.sharedCount() <= spans.sharedCapacity());
        // none lost: with no thread caches, every object created is pooled or was dropped at the ceiling
        assertEquals(transactions.createdCount(), transactions.sharedCount() + transactions.droppedCount());
        assertEquals(spans.createdCount(), spans.sharedCount() + spans.droppedCount());
    }

    @Test
    void poolStaysUnderItsCeilingWhenManyVirtualThreadsAreInFlight() throws Exception {
        tracer = newTracer(pools);
        runOnVirtualThreads(true);
        ThreadLocalObjectPool<?> transactions = unwrap(tracer.transactionPool());
        ThreadLocalObjectPool<?> spans = unwrap(tracer.spanPool());
        System.out.println("VirtualThreadPoolTest (in flight): created " + transactions.createdCount()
                + " transactions, " + spans.createdCount() + " spans; pooled " + transactions.sharedCount() + " / "
                + transactions.sharedCapacity() + " and " + spans.sharedCount() + " / " + spans.sharedCapacity()
                + "; dropped " + (transactions.droppedCount() + spans.droppedCount()));
        assertEquals(0, transactions.threadCacheCount() + spans.threadCacheCount());
        assertTrue(transactions.sharedCount() <= transactions.sharedCapacity());
        assertTrue(spans.sharedCount() <= spans.sharedCapacity());
        // whatever was created beyond the ceiling was dropped for the GC instead of being kept
        assertTrue(transactions.sharedCount() + transactions.droppedCount() >= transactions.createdCount());
        assertTrue(spans.sharedCount() + spans.droppedCount() >= spans.createdCount());
        pools.assertAllReturned();
    }
}
