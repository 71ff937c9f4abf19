package dev.apmagent.plugin;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Periodic work of plugins (ending asynchronous calls that never completed, sweeping state) on one agent-owned daemon
 * thread, {@code apm-agent-scheduler}, started by the agent at start-up. No plugin starts a thread of its own: a thread
 * started from an application thread would inherit its thread group, context class loader and inheritable thread
 * locals, and pin a web application's class loader for as long as it lives.
 *
 * <p>{@link #schedule} may be called from any thread, an application thread included: it adds the task to a lock-free
 * queue and unparks the scheduler thread, which takes it over. With no task scheduled the thread stays parked and
 * costs nothing. A task that throws is counted in its plugin's {@link PluginHealth#failures()} and runs again at its
 * next period. Tasks run one after the other and must be short.
 */
public final class AgentScheduler {

    private static final ConcurrentLinkedQueue<Task> added = new ConcurrentLinkedQueue<Task>();
    private static volatile Thread thread;

    private AgentScheduler() {
    }

    /**
     * Runs {@code work} every {@code periodMillis} from now on, until {@link Task#cancel() cancelled}.
     *
     * @param health where a failure of {@code work} is counted
     */
    public static Task schedule(Runnable work, long periodMillis, PluginHealth health) {
        Task task = new Task(work, Math.max(1, periodMillis), health);
        added.offer(task);
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
        return task;
    }

    /** Starts the scheduler thread, once (the agent's start-up). */
    public static synchronized void start() {
        if (thread != null) {
            return;
        }
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                loop();
            }
        }, "apm-agent-scheduler");
        t.setDaemon(true);
        t.setContextClassLoader(null);
        thread = t;
        t.start();
    }

    /**
     * Stops the scheduler thread (tests; the agent's own thread is a daemon and runs as long as the JVM); scheduled
     * tasks stay queued for a later {@link #start()}.
     */
    public static synchronized void stop() throws InterruptedException {
        Thread t = thread;
        if (t != null) {
            thread = null;
            t.interrupt();
            t.join(TimeUnit.SECONDS.toMillis(5));
        }
    }

    private static void loop() {
        List<Task> tasks = new ArrayList<Task>();
        while (!Thread.currentThread().isInterrupted()) {
            for (Task t = added.poll(); t != null; t = added.poll()) {
                t.nextNanos = System.nanoTime() + t.periodNanos;
                tasks.add(t);
            }
            long now = System.nanoTime();
            long waitNanos = Long.MAX_VALUE;
            for (int i = tasks.size() - 1; i >= 0; i--) {
                Task t = tasks.get(i);
                if (t.cancelled) {
                    tasks.remove(i);
                    continue;
                }
                if (now - t.nextNanos >= 0) {
                    t.run();
                    t.nextNanos = now + t.periodNanos;
                }
                waitNanos = Math.min(waitNanos, t.nextNanos - now);
            }
            if (waitNanos == Long.MAX_VALUE) {
                LockSupport.park(AgentScheduler.class);
            } else if (waitNanos > 0) {
                LockSupport.parkNanos(AgentScheduler.class, waitNanos);
            }
        }
        for (Task t : tasks) {
            if (!t.cancelled) {
                added.offer(t); // for the thread of a later start(), as stop() promises
            }
        }
    }

    /** A scheduled task. */
    public static final class Task {
        private final Runnable work;
        private final long periodNanos;
        private final PluginHealth health;
        private volatile boolean cancelled;
        /** Scheduler thread only. */
        private long nextNanos;

        Task(Runnable work, long periodMillis, PluginHealth health) {
            this.work = work;
            this.periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMillis);
            this.health = health;
        }

        /** No further runs; a run in progress completes. */
        public void cancel() {
            cancelled = true;
        }

        void run() {
            try {
                work.run();
            } catch (Throwable t) {
                health.failure();
            }
        }
    }
}
