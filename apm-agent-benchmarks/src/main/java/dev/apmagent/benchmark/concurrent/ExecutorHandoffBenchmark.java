package dev.apmagent.benchmark.concurrent;

import dev.apmagent.benchmark.BenchmarkAgent;
import dev.apmagent.plugin.concurrent.ConcurrentPlugin;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What the agent adds to {@code ThreadPoolExecutor.execute} of a trivial task, on the submitting thread (what the
 * application's request thread pays). Each invocation first blocks the pool's one worker on a gate task (set-up, not
 * measured), then runs {@value #BATCH} {@code execute}s of distinct task objects (the agent remembers a context per
 * task object), then opens the gate (tear-down, not measured): the measured calls are the queue's offer and the
 * agent's advice, without the worker's wake-up, whose cost depends on the scheduler more than on either. Each fork is
 * one mode:
 * <ul>
 *   <li>{@code none}: no instrumentation in the JVM;</li>
 *   <li>{@code idle}: the concurrent plugin installed (as on attach) and a tracer running, nothing active: the advice
 *   finds nothing to do;</li>
 *   <li>{@code active}: the same with a transaction active on the submitting thread for the whole trial: each
 *   {@code execute} captures it for the task (a reference and one map entry); the worker activates and deactivates
 *   it around the task later, on its own thread.</li>
 * </ul>
 * {@code -prof gc} gives B/op; it counts the worker's allocation too (none: the queue's node is the submitter's).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ExecutorHandoffBenchmark {

    static final int BATCH = 1_024;

    @Param({"none", "idle", "active"})
    public String mode;

    ThreadPoolExecutor pool;
    Tracer tracer;
    Transaction transaction;
    private final Runnable[] tasks = new Runnable[BATCH];
    private CountDownLatch gate;
    private BenchmarkAgent agent;

    @Setup(Level.Trial)
    public void setUp() {
        for (int i = 0; i < BATCH; i++) {
            tasks[i] = new Runnable() {
                @Override
                public void run() {
                }
            };
        }
        pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<Runnable>());
        pool.prestartAllCoreThreads();
        if (!mode.equals("none")) {
            agent = BenchmarkAgent.install(new ConcurrentPlugin(), reporter -> reporter);
            tracer = agent.tracer;
            if (mode.equals("active")) {
                transaction = tracer.startRootTransaction();
                tracer.activate(transaction);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.SECONDS);
        if (transaction != null) {
            tracer.deactivate(transaction);
            transaction.end();
        }
        if (agent != null) {
            agent.stop();
            agent.uninstall(); // the test runs every mode in one JVM; 'none' must find no instrumentation
        }
    }

    /** The worker, idle, blocks on a gate: the batch's tasks wait in the queue while it is measured. */
    @Setup(Level.Invocation)
    public void closeGate() throws InterruptedException {
        while (pool.getActiveCount() > 0 || !pool.getQueue().isEmpty()) {
            Thread.sleep(0, 100_000);
        }
        CountDownLatch closed = new CountDownLatch(1);
        gate = closed;
        pool.execute(() -> {
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        while (pool.getActiveCount() == 0) {
            Thread.yield();
        }
    }

    @TearDown(Level.Invocation)
    public void openGate() {
        gate.countDown();
    }

    /** {@value #BATCH} {@code execute}s of trivial tasks; the score is per {@code execute}. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void execute() {
        for (int i = 0; i < BATCH; i++) {
            pool.execute(tasks[i]);
        }
    }
}
