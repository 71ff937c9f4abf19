package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.trace.AbstractSpan;

import java.util.List;

/**
 * The bridge handlers of {@link ExecutorInstrumentation} and {@link ScheduledExecutorInstrumentation}, all on
 * {@link TaskContext}'s mechanism. Each handler is an exception barrier.
 *
 * <p>The worker remembers the event it activated in a per-thread slot instead of looking the task up again after it
 * ran: if a subclass's {@code afterExecute} skips {@code super}, the next {@code beforeExecute} on that thread still
 * deactivates it.
 */
final class ExecutorContext {

    /** Tomcat's connector hands its socket work to this pool: never carry a request's context into the next one. */
    static final String TOMCAT_POOL = "org.apache.tomcat.util.threads.ThreadPoolExecutor";

    private static final ThreadLocal<AbstractSpan[]> running = new ThreadLocal<AbstractSpan[]>() {
        @Override
        protected AbstractSpan[] initialValue() {
            return new AbstractSpan[1];
        }
    };

    private ExecutorContext() {
    }

    /** {@code ThreadPoolExecutor.execute(task)}: remembers the caller's active event for the task. */
    public static final class Execute extends TaskContext.Capture {
        public Execute() {
            super(Bridge.EXECUTOR_EXECUTE);
        }

        @Override
        boolean excluded(Object executor, Object task) {
            return executor.getClass().getName().equals(TOMCAT_POOL);
        }
    }

    /** {@code ScheduledThreadPoolExecutor.delayedExecute(task)}: every {@code schedule*}, {@code execute} and {@code submit}. */
    public static final class DelayedExecute extends TaskContext.Capture {
        public DelayedExecute() {
            super(Bridge.SCHEDULED_DELAYED_EXECUTE);
        }
    }

    /** {@code beforeExecute(thread, task)}, on the worker thread: activates the task's context. */
    public static final class BeforeExecute extends BridgeHandler {
        public BeforeExecute() {
            super(Bridge.EXECUTOR_BEFORE_EXECUTE);
        }

        @Override
        public Object enter(Object executor, Object task, Object unused) {
            try {
                AbstractSpan[] slot = emptySlot(); // holds something only if the previous task's afterExecute never ran
                slot[0] = TaskContext.activate(task);
            } catch (Throwable t) {
                TaskContext.health.failure();
            }
            return null;
        }
    }

    /** {@code afterExecute(task, thrown)}, on the worker thread: deactivates the task's context. */
    public static final class AfterExecute extends BridgeHandler {
        public AfterExecute() {
            super(Bridge.EXECUTOR_AFTER_EXECUTE);
        }

        @Override
        public Object enter(Object executor, Object task, Object thrown) {
            try {
                emptySlot();
            } catch (Throwable t) {
                TaskContext.health.failure();
            }
            return null;
        }
    }

    /** {@code reject(task)}, after the rejection policy ran (it may have run the task on the caller's thread, or dropped it). */
    public static final class Reject extends TaskContext.Release {
        public Reject() {
            super(Bridge.EXECUTOR_REJECT);
        }
    }

    /** {@code remove(task)} that removed it: the task will not run. */
    public static final class Remove extends TaskContext.Release {
        public Remove() {
            super(Bridge.EXECUTOR_REMOVE);
        }

        @Override
        boolean released(Object removed) {
            return Boolean.TRUE.equals(removed);
        }
    }

    /** {@code shutdownNow()}: the tasks it returns will not run (unless the application runs them itself: then without context). */
    public static final class ShutdownNow extends BridgeHandler {
        public ShutdownNow() {
            super(Bridge.EXECUTOR_SHUTDOWN_NOW);
        }

        @Override
        public void exit(Object unused, Object executor, Object arg0, Object tasks, Throwable thrown) {
            try {
                if (tasks instanceof List) {
                    for (Object task : (List<?>) tasks) {
                        TaskContext.release(task);
                    }
                }
            } catch (Throwable t) {
                TaskContext.health.failure();
            }
        }
    }

    /** {@code ScheduledFutureTask.cancel(mayInterrupt)} that cancelled it: a task still waiting will not run. */
    public static final class ScheduledCancel extends TaskContext.Release {
        public ScheduledCancel() {
            super(Bridge.SCHEDULED_TASK_CANCEL);
        }

        @Override
        Object task(Object task, Object mayInterrupt) {
            return task;
        }

        @Override
        boolean released(Object cancelled) {
            return Boolean.TRUE.equals(cancelled);
        }
    }

    /** This worker's slot, emptied: the event it still held is deactivated. */
    private static AbstractSpan[] emptySlot() {
        AbstractSpan[] slot = running.get();
        AbstractSpan context = slot[0];
        if (context != null) {
            slot[0] = null;
            TaskContext.deactivate(context);
        }
        return slot;
    }
}
