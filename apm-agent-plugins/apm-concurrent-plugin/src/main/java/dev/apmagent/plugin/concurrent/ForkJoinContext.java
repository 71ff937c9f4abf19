package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.Bridge;

import java.util.concurrent.ForkJoinPool;

/** The bridge handlers of {@link ForkJoinInstrumentation} and {@link CompletableFutureInstrumentation}, on {@link TaskContext}'s mechanism. */
final class ForkJoinContext {

    /**
     * The factory of the scheduler of virtual threads (a lambda of {@code java.lang.VirtualThread}): that pool's tasks
     * are virtual threads' continuations, submitted at every start and unpark; the virtual thread carries its own
     * context ({@link VirtualThreadInstrumentation}), its carrier must not.
     */
    private static final String VIRTUAL_THREAD_SCHEDULER = "java.lang.VirtualThread";

    private ForkJoinContext() {
    }

    /** {@code ForkJoinPool}'s submission of a task ({@code externalSubmit}, {@code poolSubmit}): the caller's context for it. */
    public static final class Submit extends TaskContext.Capture {
        public Submit() {
            super(Bridge.FORK_JOIN_SUBMIT);
        }

        @Override
        boolean excluded(Object pool, Object task) {
            ForkJoinPool.ForkJoinWorkerThreadFactory factory = ((ForkJoinPool) pool).getFactory();
            return factory != null && factory.getClass().getName().startsWith(VIRTUAL_THREAD_SCHEDULER);
        }
    }

    /** {@code ForkJoinTask.fork()}: the caller's context for the task itself. */
    public static final class Fork extends TaskContext.Capture {
        public Fork() {
            super(Bridge.FORK_JOIN_FORK);
        }

        @Override
        Object task(Object task, Object unused) {
            return task;
        }
    }

    /** {@code ForkJoinTask.doExec()}: the task runs (on a worker, or on a thread that joins or helps) with its context. */
    public static final class Exec extends TaskContext.Run {
        public Exec() {
            super(Bridge.FORK_JOIN_EXEC);
        }
    }

    /** {@code CompletableFuture$ThreadPerTaskExecutor.execute(task)}: the caller's context for the task. */
    public static final class AsyncSubmit extends TaskContext.Capture {
        public AsyncSubmit() {
            super(Bridge.ASYNC_TASK_SUBMIT);
        }
    }

    /** {@code run()} of a {@code CompletableFuture} async task run by a plain executor: the task's context for the run. */
    public static final class AsyncRun extends TaskContext.Run {
        public AsyncRun() {
            super(Bridge.ASYNC_TASK_RUN);
        }
    }
}
