package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code executor}: {@code java.util.concurrent.ThreadPoolExecutor} (and so {@code Executors.newFixedThreadPool},
 * {@code newCachedThreadPool}, {@code newSingleThreadExecutor} and every {@code submit}/{@code invokeAll}, which go
 * through {@code execute}). {@code execute(task)} remembers the event active on the caller's thread for the task;
 * the worker activates it as it takes the task ({@code Worker.run()} for its first task, {@code getTask()} for the
 * others, {@code beforeExecute} where a subclass calls it with a task the worker did not take that way) and
 * deactivates it in {@code afterExecute} or, where a subclass overrides that without {@code super}, when it asks for
 * the next task or ends (see {@link ExecutorContext}). A task that will not run is released: {@code reject(task)} (after
 * whatever the rejection policy did), {@code remove(task)} and {@code shutdownNow()}'s returned tasks.
 *
 * <p>Why these hooks: the task object is the only thing the caller and the worker share, and it is often a lambda,
 * whose class cannot be given a field; so its context lives in the weak map of a map-only
 * {@link dev.apmagent.plugin.ContextStore} (this instrumentation declares no context key type). Wrapping the
 * task instead would change what the application sees ({@code getQueue()}, {@code remove(task)},
 * {@code shutdownNow()}'s result). A subclass that overrides {@code beforeExecute} or {@code afterExecute} without
 * calling {@code super} (Spring 6.1+'s {@code ThreadPoolTaskExecutor}) still propagates, through the worker's own
 * methods.
 * {@code ScheduledThreadPoolExecutor} overrides {@code execute}: {@link ScheduledExecutorInstrumentation} captures
 * there, and its tasks run through the hooks here. Tomcat's own pool (a subclass in older Tomcats) never carries
 * context: its tasks are the connector's socket work.
 *
 * <p>The advice calls {@link Bridge}: {@code ThreadPoolExecutor} is a class of the bootstrap loader, which cannot see
 * the agent's classes.
 */
public final class ExecutorInstrumentation extends Instrumentation {

    static final String TYPE = "java.util.concurrent.ThreadPoolExecutor";
    static final String WORKER = "java.util.concurrent.ThreadPoolExecutor$Worker";
    private static final String ADVICE = "dev.apmagent.plugin.concurrent.ExecutorInstrumentation$";
    private static final String HANDLERS = "dev.apmagent.plugin.concurrent.ExecutorContext$";

    @Override
    public String name() {
        return "executor";
    }

    @Override
    public Collection<String> groupNames() {
        return Collections.singletonList("concurrent");
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(TYPE).or(named(WORKER));
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(TYPE).or(named(WORKER));
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(named("execute").and(takesArguments(Runnable.class)), ADVICE + "ExecuteAdvice"),
                new AdviceBinding(named("beforeExecute").and(takesArguments(2)).and(takesArgument(1, Runnable.class)),
                        ADVICE + "BeforeExecuteAdvice"),
                new AdviceBinding(named("afterExecute").and(takesArguments(2)).and(takesArgument(0, Runnable.class)),
                        ADVICE + "AfterExecuteAdvice"),
                new AdviceBinding(named("reject").and(takesArguments(Runnable.class)), ADVICE + "RejectAdvice"),
                new AdviceBinding(named("remove").and(takesArguments(Runnable.class)), ADVICE + "RemoveAdvice"),
                new AdviceBinding(named("shutdownNow").and(takesArguments(0)), ADVICE + "ShutdownNowAdvice"),
                new AdviceBinding(named("getTask").and(takesArguments(0)), ADVICE + "GetTaskAdvice"),
                new AdviceBinding(named("run").and(takesArguments(0)), ADVICE + "WorkerRunAdvice"));
    }

    @Override
    public List<String> bridgeHandlers() {
        return Arrays.asList(HANDLERS + "Execute", HANDLERS + "BeforeExecute", HANDLERS + "AfterExecute", HANDLERS + "Reject",
                HANDLERS + "Remove", HANDLERS + "ShutdownNow", HANDLERS + "GetTask", HANDLERS + "WorkerRun");
    }

    /** {@code execute(task)}: remember the caller's context for the task; forget it if the pool rejects the task. */
    public static final class ExecuteAdvice {
        private ExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object executor, @Advice.Argument(0) Runnable task) {
            return Bridge.enter(Bridge.EXECUTOR_EXECUTE, executor, task, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object captured, @Advice.This Object executor, @Advice.Argument(0) Runnable task,
                                @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.EXECUTOR_EXECUTE, captured, executor, task, null, thrown);
        }
    }

    /** {@code beforeExecute(thread, task)}, on the worker: activate the task's context. */
    public static final class BeforeExecuteAdvice {
        private BeforeExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.This Object executor, @Advice.Argument(1) Runnable task) {
            Bridge.enter(Bridge.EXECUTOR_BEFORE_EXECUTE, executor, task, null);
        }
    }

    /** {@code afterExecute(task, thrown)}, on the worker: deactivate it. */
    public static final class AfterExecuteAdvice {
        private AfterExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.This Object executor, @Advice.Argument(0) Runnable task) {
            Bridge.enter(Bridge.EXECUTOR_AFTER_EXECUTE, executor, task, null);
        }
    }

    /** {@code reject(task)}, after the rejection policy: the task is not in the pool; release its context. */
    public static final class RejectAdvice {
        private RejectAdvice() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Object executor, @Advice.Argument(0) Runnable task, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.EXECUTOR_REJECT, null, executor, task, null, thrown);
        }
    }

    /** {@code remove(task)}: a removed task will not run; release its context. */
    public static final class RemoveAdvice {
        private RemoveAdvice() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Object executor, @Advice.Argument(0) Runnable task, @Advice.Return boolean removed,
                                @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.EXECUTOR_REMOVE, null, executor, task, Boolean.valueOf(removed), thrown);
        }
    }

    /** {@code shutdownNow()}: the returned tasks will not run; release their contexts. */
    public static final class ShutdownNowAdvice {
        private ShutdownNowAdvice() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Object executor, @Advice.Return Object tasks, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.EXECUTOR_SHUTDOWN_NOW, null, executor, null, tasks, thrown);
        }
    }

    /** {@code getTask()}, on the worker: finish the previous task; activate the next one's context. */
    public static final class GetTaskAdvice {
        private GetTaskAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.This Object executor) {
            Bridge.enter(Bridge.EXECUTOR_GET_TASK, executor, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Object executor, @Advice.Return Object task, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.EXECUTOR_GET_TASK, null, executor, null, task, thrown);
        }
    }

    /** {@code Worker.run()}: the worker's first task (a field of the worker, read where the advice is inlined). */
    public static final class WorkerRunAdvice {
        private WorkerRunAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.This Object worker, @Advice.FieldValue("firstTask") Runnable firstTask) {
            Bridge.enter(Bridge.EXECUTOR_WORKER_RUN, worker, firstTask, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Object worker, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.EXECUTOR_WORKER_RUN, null, worker, null, null, thrown);
        }
    }
}
