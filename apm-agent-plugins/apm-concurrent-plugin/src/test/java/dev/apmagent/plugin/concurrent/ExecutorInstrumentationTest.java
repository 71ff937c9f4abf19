package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The executor instrumentation installed into this JVM as on attach: {@code ThreadPoolExecutor}, a class of the
 * bootstrap loader that was loaded long before, is retransformed with advice that reaches the agent through the
 * bootstrap bridge. {@link PluginAgent#stopTracer()} checks after each test that every event went back to its pool
 * exactly once, so a context that was remembered and never released fails the test.
 */
class ExecutorInstrumentationTest {

    private static PluginAgent agent;
    private ExecutorService pool;

    @BeforeAll
    static void install() {
        agent = PluginAgent.install(new ConcurrentPlugin());
        assertEquals(0, agent.errors(), "transformation errors");
    }

    @AfterAll
    static void uninstall() {
        agent.uninstall();
    }

    @BeforeEach
    void start() {
        agent.startTracer();
        pool = Executors.newFixedThreadPool(1);
    }

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        agent.stopTracer();
    }

    @Test
    void theBridgeIsTheBootstrapLoadersAndThePoolClassWasRetransformed() {
        assertNull(Bridge.class.getClassLoader(), "Bridge defined by the bootstrap loader");
        for (String invisible : new String[] {TaskContext.class.getName(), "dev.apmagent.plugin.ContextStore", "dev.apmagent.trace.Tracer",
                "dev.apmagent.instrument.injector.BootstrapInjector"}) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(invisible, false, null), invisible + " is not the bootstrap loader's");
        }
        assertTrue(agent.transformedTypes() >= 1, "ThreadPoolExecutor retransformed");
    }

    @Test
    void aSubmittedTaskRunsInTheCallersTransactionAndItsSpansAreChildren() throws Exception {
        Tracer tracer = agent.tracer();
        long propagatedBefore = TaskContext.propagated.sum();
        Transaction[] caller = new Transaction[1];
        AbstractSpan seen = agent.inTransaction(() -> {
            caller[0] = agent.tracer().currentTransaction();
            return pool.submit(() -> {
                Span span = tracer.createSpan();
                span.setName("in the pool");
                span.end();
                return tracer.active();
            }).get(10, TimeUnit.SECONDS);
        });
        assertSame(caller[0], seen);
        PluginAgent.assertChildOf(caller[0], agent.onlySpan());
        assertEquals(propagatedBefore + 1, TaskContext.propagated.sum(), "counted in the plugin's health metrics");
        assertNull(pool.submit(tracer::active).get(10, TimeUnit.SECONDS), "the worker is left with nothing active");
    }

    @Test
    void executeAndInvokeAllCarryTheContextOfTheActiveSpan() throws Exception {
        Tracer tracer = agent.tracer();
        agent.inTransaction(() -> {
            Span parent = tracer.createSpan();
            parent.setName("parent");
            tracer.activate(parent);
            try {
                CountDownLatch ran = new CountDownLatch(1);
                AbstractSpan[] seen = new AbstractSpan[1];
                pool.execute(() -> {
                    seen[0] = tracer.active();
                    ran.countDown();
                });
                assertTrue(ran.await(10, TimeUnit.SECONDS));
                assertSame(parent, seen[0]);
                java.util.concurrent.Callable<AbstractSpan> active = tracer::active;
                for (Future<AbstractSpan> f : pool.invokeAll(java.util.Arrays.asList(active, active))) {
                    assertSame(parent, f.get());
                }
            } finally {
                tracer.deactivate(parent);
                parent.end();
            }
            return null;
        });
    }

    @Test
    void withNothingActiveTasksRunWithoutContextAndNothingIsRemembered() throws Exception {
        assertNull(pool.submit(agent.tracer()::active).get(10, TimeUnit.SECONDS));
        assertEquals(0, TaskContext.queuedTasks());
    }

    @Test
    void aRejectedTaskReleasesTheContextItWasGiven() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ThreadPoolExecutor busy = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new SynchronousQueue<>());
        try {
            agent.inTransaction(() -> {
                busy.execute(() -> await(release));
                assertThrows(RejectedExecutionException.class, () -> busy.execute(() -> { }));
                return null;
            });
        } finally {
            release.countDown();
            busy.shutdown();
            assertTrue(busy.awaitTermination(10, TimeUnit.SECONDS));
        }
        assertEquals(0, TaskContext.queuedTasks());
    }

    @Test
    void aSubclassThatSkipsSuperAfterExecuteDoesNotLeakItsContextIntoTheNextTask() throws Exception {
        Tracer tracer = agent.tracer();
        ThreadPoolExecutor careless = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>()) {
            @Override
            protected void afterExecute(Runnable r, Throwable t) {
                // no super.afterExecute
            }
        };
        try {
            agent.inTransaction(() -> careless.submit(() -> { }).get(10, TimeUnit.SECONDS));
            assertNull(careless.submit(tracer::active).get(10, TimeUnit.SECONDS), "the next task on that worker");
        } finally {
            careless.shutdown();
            assertTrue(careless.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
