package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.trace.AbstractSpan;

import java.util.List;

/**
 * The bridge handlers of {@link ExecutorInstrumentation} and {@link ScheduledExecutorInstrumentation}, all on
 * {@link TaskContext}'s mechanism. Each handler is an exception barrier.
 *
 * <p>The worker side does not rely on {@code beforeExecute}/{@code afterExecute} alone: subclasses override them
 * without calling {@code super} (Spring 6.1+'s {@code ThreadPoolTaskExecutor} does, for its pause and resume). The
 * worker's own methods, which no subclass can override, frame every task: {@code Worker.run()} starts with the
 * worker's first task and ends with the thread, and {@code getTask()} returns each next task. A worker's task is
 * activated when it gets it (its first task as {@code Worker.run()} starts, the others as {@code getTask()} returns
 * them) and deactivated when the worker asks for the next one, ends, or (earlier, when the pool calls them)
 * {@code afterExecute} runs. {@code beforeExecute} activates only a task that is not already the worker's current one.
 * The worker remembers its current task and event in a per-thread slot ({@link Running}).
 */
final class ExecutorContext {

    /** Tomcat's connector hands its socket work to this pool: never carry a request's context into the next one. */
    static final String TOMCAT_POOL = "org.apache.tomcat.util.threads.ThreadPoolExecutor";

    /** What a worker thread is running: the task and the event activated for it (null: none). */
    static final class Running {
        Object task;
        AbstractSpan context;
    }

    private static final ThreadLocal<Running> running = new ThreadLocal<Running>() {
        @Override
        protected Running initialValue() {
            return new Running();
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

    /** {@code Worker.run()}, on the new worker thread: its first task's context; on exit, whatever is still active. */
    public static final class WorkerRun extends BridgeHandler {
        public WorkerRun() {
            super(Bridge.EXECUTOR_WORKER_RUN);
        }

        @Override
        public Object enter(Object worker, Object firstTask, Object unused) {
            start(firstTask);
            return null;
        }

        @Override
        public void exit(Object unused, Object worker, Object firstTask, Object result, Throwable thrown) {
            finish();
        }
    }

    /** {@code getTask()}, on the worker: the previous task is done (deactivated); the returned one is activated. */
    public static final class GetTask extends BridgeHandler {
        public GetTask() {
            super(Bridge.EXECUTOR_GET_TASK);
        }

        @Override
        public Object enter(Object executor, Object unused, Object unused2) {
            finish();
            return null;
        }

        @Override
        public void exit(Object unused, Object executor, Object unused2, Object task, Throwable thrown) {
            start(task);
        }
    }

    /** {@code beforeExecute(thread, task)}, on the worker: activates the task unless it is the worker's current one. */
    public static final class BeforeExecute extends BridgeHandler {
        public BeforeExecute() {
            super(Bridge.EXECUTOR_BEFORE_EXECUTE);
        }

        @Override
        public Object enter(Object executor, Object task, Object unused) {
            start(task);
            return null;
        }
    }

    /** {@code afterExecute(task, thrown)}, on the worker: deactivates the task's context. */
    public static final class AfterExecute extends BridgeHandler {
        public AfterExecute() {
            super(Bridge.EXECUTOR_AFTER_EXECUTE);
        }

        @Override
        public Object enter(Object executor, Object task, Object thrown) {
            finish();
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
                    List<?> list = (List<?>) tasks;
                    for (int i = 0; i < list.size(); i++) {
                        TaskContext.release(list.get(i));
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

    /** The worker takes {@code task}: the previous one is finished, {@code task}'s context activated (once per task). */
    private static void start(Object task) {
        try {
            Running current = running.get();
            if (task == null || task == current.task) {
                return;
            }
            finish(current);
            current.task = task;
            current.context = TaskContext.activate(task);
        } catch (Throwable t) {
            TaskContext.health.failure();
        }
    }

    /** The worker is done with its task: its context, if any, is deactivated. */
    private static void finish() {
        try {
            finish(running.get());
        } catch (Throwable t) {
            TaskContext.health.failure();
        }
    }

    private static void finish(Running current) {
        AbstractSpan context = current.context;
        current.task = null;
        current.context = null;
        if (context != null) {
            TaskContext.deactivate(context);
        }
    }
}
