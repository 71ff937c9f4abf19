package dev.apmagent.plugin.concurrent;

import com.sun.management.ThreadMXBean;
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

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every hand-off of the plugin in this JVM (installed as on attach, the experimental {@code thread-start} included):
 * the task runs with the caller's event active, deactivated afterwards on every path, and every event goes back to its
 * pool exactly once ({@link PluginAgent#stopTracer()} after each test), so a context that was captured and never
 * released, or released twice, fails the test. Virtual threads need Java 21: the integration tests cover them on 25.
 */
class HandOffTest {

    private static PluginAgent agent;
    private final List<ExecutorService> pools = new ArrayList<>();
    private Tracer tracer;

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
        tracer = agent.tracer();
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (ExecutorService pool : pools) {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
        assertEquals(0, TaskContext.queuedTasks(), "contexts left behind");
        agent.stopTracer();
    }

    private <T extends ExecutorService> T pool(T pool) {
        pools.add(pool);
        return pool;
    }

    /** Creates a span on whatever thread runs it and returns the event that was active there. */
    private AbstractSpan spanAndActive() {
        Span span = tracer.createSpan();
        if (span != null) {
            span.setName("work");
            span.end();
        }
        return tracer.active();
    }

    // ---------------------------------------------------------------- ScheduledThreadPoolExecutor

    @Test
    void aScheduledTaskRunsInTheCallersTransaction() throws Exception {
        ScheduledThreadPoolExecutor scheduler = pool(new ScheduledThreadPoolExecutor(1));
        Transaction[] caller = new Transaction[1];
        AbstractSpan seen = agent.inTransaction(() -> {
            caller[0] = tracer.currentTransaction();
            return scheduler.schedule(this::spanAndActive, 5, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
        });
        assertSame(caller[0], seen);
        PluginAgent.assertChildOf(caller[0], agent.onlySpan());
        AbstractSpan submitted = agent.inTransaction(() -> {
            caller[0] = tracer.currentTransaction();
            return scheduler.submit(this::spanAndActive).get(10, TimeUnit.SECONDS);
        });
        assertSame(caller[0], submitted, "submit goes through delayedExecute too");
    }

    @Test
    void aPeriodicTaskCarriesTheContextIntoItsFirstRunOnly() throws Exception {
        ScheduledThreadPoolExecutor scheduler = pool(new ScheduledThreadPoolExecutor(1));
        List<Object> seen = new CopyOnWriteArrayList<>();
        CountDownLatch threeRuns = new CountDownLatch(3);
        Transaction[] caller = new Transaction[1];
        ScheduledFuture<?> periodic = agent.inTransaction(() -> {
            caller[0] = tracer.currentTransaction();
            return scheduler.scheduleAtFixedRate(() -> {
                seen.add(String.valueOf(tracer.active() == caller[0]) + "/" + tracer.activeDepth());
                threeRuns.countDown();
            }, 0, 5, TimeUnit.MILLISECONDS);
        });
        assertTrue(threeRuns.await(10, TimeUnit.SECONDS));
        periodic.cancel(false);
        assertEquals(List.of("true/1", "false/0", "false/0"), seen.subList(0, 3),
                "the first run in the transaction, the later ones with nothing active: the ended transaction is not pinned");
    }

    @Test
    void aScheduledTaskCancelledBeforeItRanGivesItsContextBack() throws Exception {
        ScheduledThreadPoolExecutor keeps = pool(new ScheduledThreadPoolExecutor(1));
        ScheduledThreadPoolExecutor removes = pool(new ScheduledThreadPoolExecutor(1));
        removes.setRemoveOnCancelPolicy(true);
        long releasedBefore = TaskContext.neverRun.sum();
        agent.inTransaction(() -> {
            ScheduledFuture<?> a = keeps.schedule(() -> { }, 1, TimeUnit.HOURS);
            ScheduledFuture<?> b = removes.schedule(() -> { }, 1, TimeUnit.HOURS);
            ScheduledFuture<?> c = keeps.scheduleWithFixedDelay(() -> { }, 1, 1, TimeUnit.HOURS);
            assertEquals(3, TaskContext.queuedTasks());
            assertTrue(a.cancel(false) && b.cancel(true) && c.cancel(false));
            return null;
        });
        assertEquals(0, TaskContext.queuedTasks());
        assertEquals(releasedBefore + 3, TaskContext.neverRun.sum());
        assertEquals(0, removes.getQueue().size(), "the application's removal policy applied as without the agent");
    }

    // ---------------------------------------------------------------- ThreadPoolExecutor: paths where the task never runs

    @Test
    void removedTasksAndThoseShutdownNowReturnsGiveTheirContextBackAndAreTheApplicationsOwnObjects() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ThreadPoolExecutor busy = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        Runnable removed = () -> { };
        Runnable returned = () -> { };
        CountDownLatch started = new CountDownLatch(1);
        agent.inTransaction(() -> {
            busy.execute(() -> {
                started.countDown();
                await(release);
            });
            assertTrue(started.await(10, TimeUnit.SECONDS));
            busy.execute(removed);
            busy.execute(returned);
            assertTrue(busy.remove(removed));
            assertSame(returned, busy.getQueue().peek(), "the queue holds the application's task, not a wrapper");
            return null;
        });
        assertEquals(List.of(returned), busy.shutdownNow(), "shutdownNow returns the application's task");
        release.countDown();
        assertEquals(0, TaskContext.queuedTasks());
    }

    @Test
    void aRejectedTaskRunByCallerRunsPolicyRunsInTheCallersContextAndKeepsNothing() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ThreadPoolExecutor full = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1),
                new ThreadPoolExecutor.CallerRunsPolicy()));
        AbstractSpan[] seen = new AbstractSpan[1];
        Transaction caller = agent.inTransaction(() -> {
            full.execute(() -> await(release));
            full.execute(() -> { });
            full.execute(() -> seen[0] = tracer.active()); // rejected: runs here
            return tracer.currentTransaction();
        });
        release.countDown();
        assertSame(caller, seen[0]);
        ThreadPoolExecutor discarding = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1),
                new ThreadPoolExecutor.DiscardPolicy()));
        CountDownLatch hold = new CountDownLatch(1);
        agent.inTransaction(() -> {
            discarding.execute(() -> await(hold));
            discarding.execute(() -> { });
            discarding.execute(() -> { }); // discarded silently
            return null;
        });
        hold.countDown();
    }

    @Test
    void aTaskThatThrowsLeavesNothingActiveOnItsThread() throws Exception {
        ExecutorService single = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        ForkJoinPool forkJoin = pool(new ForkJoinPool(1));
        agent.inTransaction(() -> {
            single.execute(() -> {
                throw new IllegalStateException("the application's own failure");
            });
            Future<?> failed = forkJoin.submit(() -> {
                throw new IllegalStateException("the application's own failure");
            });
            assertTrue(assertThrowsCause(failed) instanceof IllegalStateException, "the exception is the application's");
            return null;
        });
        assertEquals(0, (int) single.submit(tracer::activeDepth).get(10, TimeUnit.SECONDS));
        assertEquals(0, (int) forkJoin.submit(tracer::activeDepth).get(10, TimeUnit.SECONDS));
    }

    // ---------------------------------------------------------------- ForkJoinPool, CompletableFuture

    @Test
    void forkJoinSubmitExecuteInvokeAndForkCarryTheContext() throws Exception {
        ForkJoinPool forkJoin = pool(new ForkJoinPool(2));
        Transaction caller = agent.inTransaction(() -> {
            Transaction t = tracer.currentTransaction();
            assertSame(t, forkJoin.submit(this::spanAndActive).get(10, TimeUnit.SECONDS));
            CountDownLatch ran = new CountDownLatch(1);
            AbstractSpan[] executed = new AbstractSpan[1];
            forkJoin.execute(() -> {
                executed[0] = tracer.active();
                ran.countDown();
            });
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            assertSame(t, executed[0]);
            assertEquals(16, (int) forkJoin.invoke(new CountInContext(t, 16)), "every forked subtask ran in the transaction");
            assertEquals(16, (int) new CountInContext(t, 16).fork().join(), "fork from outside a pool: the common pool");
            assertEquals(100, IntStream.range(0, 100).parallel().map(i -> tracer.currentTransaction() == t ? 1 : 0).sum(),
                    "a parallel stream");
            return t;
        });
        assertEquals(1, agent.spans().size());
        PluginAgent.assertChildOf(caller, agent.spans().get(0));
    }

    @Test
    void completableFutureAsyncStagesRunInTheCallersContext() throws Exception {
        ThreadPoolExecutor custom = pool(new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        ForkJoinPool forkJoin = pool(new ForkJoinPool(2));
        agent.inTransaction(() -> {
            Transaction t = tracer.currentTransaction();
            assertSame(t, CompletableFuture.supplyAsync(tracer::currentTransaction).get(10, TimeUnit.SECONDS), "default executor");
            assertSame(t, CompletableFuture.supplyAsync(tracer::currentTransaction, custom).get(10, TimeUnit.SECONDS));
            assertSame(t, CompletableFuture.supplyAsync(tracer::currentTransaction, forkJoin).get(10, TimeUnit.SECONDS));
            assertSame(t, CompletableFuture.supplyAsync(() -> 1, custom)
                    .thenApplyAsync(i -> tracer.currentTransaction(), forkJoin)
                    .thenApplyAsync(x -> tracer.currentTransaction()).get(10, TimeUnit.SECONDS), "a chain of async stages");
            AbstractSpan[] ran = new AbstractSpan[1];
            CompletableFuture.runAsync(() -> ran[0] = tracer.currentTransaction(), custom).get(10, TimeUnit.SECONDS);
            assertSame(t, ran[0]);
            return null;
        });
    }

    @Test
    void springsThreadPoolTaskExecutorAndItsAsyncFuturesCarryTheContext() throws Exception {
        org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor spring = new org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor();
        spring.setCorePoolSize(1);
        spring.setTaskDecorator(task -> () -> task.run()); // an application's decorator wraps; the agent does not
        spring.initialize();
        pools.add(spring.getThreadPoolExecutor());
        agent.inTransaction(() -> {
            Transaction t = tracer.currentTransaction();
            assertSame(t, spring.submit(this::spanAndActive).get(10, TimeUnit.SECONDS));
            assertSame(t, spring.submitCompletable(tracer::currentTransaction).get(10, TimeUnit.SECONDS));
            return null;
        });
        PluginAgent.assertChildOf(agent.reporter().transactions().get(0), agent.onlySpan());
    }

    @Test
    void nestedHandOffsKeepTheContext() throws Exception {
        ExecutorService outer = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        ScheduledThreadPoolExecutor inner = pool(new ScheduledThreadPoolExecutor(1));
        ForkJoinPool forkJoin = pool(new ForkJoinPool(1));
        ExecutorService last = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        agent.inTransaction(() -> {
            Transaction t = tracer.currentTransaction();
            AbstractSpan innermost = outer.submit(() -> inner.submit(() -> forkJoin.submit(() -> CompletableFuture.supplyAsync(
                    tracer::active, last).get()).get()).get()).get(10, TimeUnit.SECONDS);
            assertSame(t, innermost);
            return null;
        });
    }

    // ---------------------------------------------------------------- Thread.start (experimental)

    @Test
    void aNewThreadRunsInTheCallersContextButNeitherAPoolsWorkerNorASubclass() throws Exception {
        AbstractSpan[] seen = new AbstractSpan[2];
        ThreadPoolExecutor startedInATransaction = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        Transaction t = agent.inTransaction(() -> {
            Thread plain = new Thread(() -> seen[0] = tracer.active());
            Thread subclass = new Thread() {
                @Override
                public void run() {
                    seen[1] = tracer.active();
                }
            };
            plain.start();
            subclass.start();
            plain.join(10_000);
            subclass.join(10_000);
            startedInATransaction.submit(() -> { }).get(10, TimeUnit.SECONDS); // starts the pool's worker here
            return tracer.currentTransaction();
        });
        assertSame(t, seen[0]);
        assertNull(seen[1], "a Thread subclass is left alone");
        assertNull(startedInATransaction.submit(tracer::active).get(10, TimeUnit.SECONDS),
                "the worker started inside the transaction does not keep it");
    }

    // ---------------------------------------------------------------- left out

    @Test
    void tomcatsOwnPoolAndTheAgentsThreadsNeverCarryContext() throws Exception {
        ExecutorService tomcat = pool(new org.apache.tomcat.util.threads.ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>()));
        AbstractSpan[] seen = new AbstractSpan[1];
        AbstractSpan onConnectorWork = agent.inTransaction(() -> {
            Thread agents = new Thread(() -> seen[0] = tracer.active(), "apm-reporter");
            agents.start();
            agents.join(10_000);
            return tomcat.submit(tracer::active).get(10, TimeUnit.SECONDS);
        });
        assertNull(onConnectorWork, "Tomcat's pool");
        assertNull(seen[0], "the agent's thread");
    }

    @Test
    void disableInstrumentationsWithTheElasticAgentsGroupNamesTurnsTheHandOffsOff() throws Exception {
        agent.uninstall();
        agent.stopTracer();
        PluginAgent without = PluginAgent.install(new ConcurrentPlugin(), "executor", "fork-join");
        try {
            without.startTracer();
            Tracer t = without.tracer();
            ExecutorService plain = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
            ScheduledThreadPoolExecutor scheduled = pool(new ScheduledThreadPoolExecutor(1));
            ForkJoinPool forkJoin = pool(new ForkJoinPool(1));
            without.inTransaction(() -> {
                assertNull(plain.submit(t::active).get(10, TimeUnit.SECONDS));
                assertNull(scheduled.submit(t::active).get(10, TimeUnit.SECONDS));
                assertNull(forkJoin.submit(t::active).get(10, TimeUnit.SECONDS));
                return null;
            });
            without.stopTracer();
        } finally {
            without.uninstall();
            agent = PluginAgent.install(new ConcurrentPlugin());
            agent.startTracer();
        }
    }

    // ---------------------------------------------------------------- load, allocation

    @Test
    void tenThousandConcurrentHandOffsOfTransactionsThatEndFirst() throws Exception {
        AtomicInteger wrong = new AtomicInteger();
        AtomicInteger leftActive = new AtomicInteger();
        ThreadPoolExecutor workers = pool(new ThreadPoolExecutor(3, 3, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()) {
            @Override
            protected void afterExecute(Runnable r, Throwable thrown) {
                super.afterExecute(r, thrown);
                if (tracer.activeDepth() != 0) {
                    leftActive.incrementAndGet();
                }
            }
        });
        ForkJoinPool forkJoin = pool(new ForkJoinPool(3));
        ExecutorService submitters = pool(new ThreadPoolExecutor(4, 4, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>()));
        int perSubmitter = 2_500;
        CountDownLatch done = new CountDownLatch(4 * perSubmitter);
        List<Future<?>> submitting = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            submitting.add(submitters.submit(() -> {
                for (int i = 0; i < perSubmitter; i++) {
                    Transaction t = tracer.startRootTransaction();
                    t.setName("load");
                    long id = t.traceContext().id();
                    tracer.activate(t);
                    Runnable task = () -> {
                        AbstractSpan active = tracer.active();
                        // the transaction ended (usually) before this ran: still this one, never a recycled object
                        if (active != t || active.traceContext().id() != id || tracer.activeDepth() != 1) {
                            wrong.incrementAndGet();
                        }
                        done.countDown();
                    };
                    if ((i & 1) == 0) {
                        workers.execute(task);
                    } else {
                        forkJoin.execute(task);
                    }
                    tracer.deactivate(t);
                    t.end();
                }
            }));
        }
        for (Future<?> f : submitting) {
            f.get(60, TimeUnit.SECONDS);
        }
        assertTrue(done.await(60, TimeUnit.SECONDS));
        assertEquals(0, wrong.get(), "tasks that did not see their own transaction");
        assertEquals(0, leftActive.get(), "workers left with something active after a task");
        assertEquals(0, (int) forkJoin.submit(tracer::activeDepth).get(10, TimeUnit.SECONDS));
        // stop() then checks that each of the 10,000 transactions went back to its pool exactly once
    }

    @Test
    void aHandOffAllocatesNothingWhenNothingIsActiveAndOneEntryWhenSomethingIs() throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        int n = 10_000;
        ThreadPoolExecutor pool = pool(new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(2 * n)));
        CountDownLatch gate = new CountDownLatch(1);
        pool.execute(() -> await(gate)); // the worker waits: every task below stays queued, the queue allocates nothing
        Runnable[] tasks = new Runnable[2 * n];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = new Runnable() {
                @Override
                public void run() {
                }
            };
        }
        for (int i = 0; i < 1000; i++) {
            pool.remove(tasks[0]); // warm up the advised paths' code
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) {
            pool.execute(tasks[i]);
        }
        long idle = threads.getCurrentThreadAllocatedBytes() - before;
        long[] active = new long[1];
        agent.inTransaction(() -> {
            long start = threads.getCurrentThreadAllocatedBytes();
            for (int i = n; i < 2 * n; i++) {
                pool.execute(tasks[i]);
            }
            active[0] = threads.getCurrentThreadAllocatedBytes() - start;
            return null;
        });
        gate.countDown();
        assertTrue(idle < 1024, "bytes for " + n + " hand-offs with nothing active: " + idle);
        double perHandOff = (double) active[0] / n;
        assertTrue(perHandOff <= 64, "bytes per hand-off with a transaction active (one map entry, 40 B): " + perHandOff);
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    }

    /** Counts, in forked subtasks, those that see {@code expected} as the current transaction. */
    private final class CountInContext extends RecursiveTask<Integer> {
        private final Transaction expected;
        private final int leaves;

        CountInContext(Transaction expected, int leaves) {
            this.expected = expected;
            this.leaves = leaves;
        }

        @Override
        protected Integer compute() {
            if (leaves == 1) {
                return tracer.currentTransaction() == expected ? 1 : 0;
            }
            CountInContext left = new CountInContext(expected, leaves / 2);
            CountInContext right = new CountInContext(expected, leaves - leaves / 2);
            ForkJoinTask<Integer> forked = left.fork();
            return right.compute() + forked.join();
        }
    }

    private static Throwable assertThrowsCause(Future<?> future) throws InterruptedException {
        try {
            future.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no exception");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
