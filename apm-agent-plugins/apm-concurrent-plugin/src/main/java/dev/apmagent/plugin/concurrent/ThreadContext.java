package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;

/** The bridge handlers of {@link VirtualThreadInstrumentation} and {@link ThreadStartInstrumentation}, on {@link TaskContext}'s mechanism. */
final class ThreadContext {

    /** The agent's own threads ({@code apm-reporter}, {@code apm-sender}, {@code apm-agent-scheduler}) never carry context. */
    static final String AGENT_THREAD_PREFIX = "apm-";

    /** Pool workers being started on this thread (a pool's worker would otherwise keep its first caller's context for life). */
    private static final ThreadLocal<int[]> startingWorkers = new ThreadLocal<int[]>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    private ThreadContext() {
    }

    /** {@code VirtualThread.start(container)}: the caller's context for the virtual thread. */
    public static final class VirtualStart extends TaskContext.Capture {
        public VirtualStart() {
            super(Bridge.VIRTUAL_THREAD_START);
        }

        @Override
        Object task(Object thread, Object container) {
            return thread;
        }
    }

    /** {@code VirtualThread.run(task)}, on the virtual thread: its context for the whole run. */
    public static final class VirtualRun extends TaskContext.Run {
        public VirtualRun() {
            super(Bridge.VIRTUAL_THREAD_RUN);
        }
    }

    /**
     * {@code Thread.start()} of a plain {@code Thread} (not a subclass: most override {@code run()}, and a fork-join
     * worker or a timer thread lives on), not the agent's, not a pool's worker.
     */
    public static final class Start extends TaskContext.Capture {
        public Start() {
            super(Bridge.THREAD_START);
        }

        @Override
        Object task(Object thread, Object unused) {
            return thread;
        }

        @Override
        boolean excluded(Object self, Object task) {
            Thread thread = (Thread) self;
            return thread.getClass() != Thread.class || thread.getName().startsWith(AGENT_THREAD_PREFIX)
                    || startingWorkers.get()[0] > 0;
        }
    }

    /** {@code Thread.run()}, on the started thread: its context for the run. */
    public static final class Run extends TaskContext.Run {
        public Run() {
            super(Bridge.THREAD_RUN);
        }
    }

    /** {@code Thread.exit()}: a thread whose {@code run()} never reached {@code Thread.run} gives its context back. */
    public static final class Exit extends TaskContext.Release {
        public Exit() {
            super(Bridge.THREAD_EXIT);
        }

        @Override
        Object task(Object thread, Object unused) {
            return thread;
        }
    }

    /** {@code ThreadPoolExecutor.addWorker(firstTask, core)}: the thread it starts is a worker, not a task. */
    public static final class AddWorker extends BridgeHandler {
        public AddWorker() {
            super(Bridge.EXECUTOR_ADD_WORKER);
        }

        @Override
        public Object enter(Object executor, Object arg0, Object arg1) {
            try {
                if (TaskContext.active() == null) {
                    return null;
                }
                int[] depth = startingWorkers.get();
                depth[0]++;
                return depth;
            } catch (Throwable t) {
                TaskContext.health.failure();
                return null;
            }
        }

        @Override
        public void exit(Object depth, Object executor, Object arg0, Object result, Throwable thrown) {
            if (depth != null) {
                ((int[]) depth)[0]--;
            }
        }
    }
}
