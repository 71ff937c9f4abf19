package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code completable-future}: what {@link ForkJoinInstrumentation} and {@link ExecutorInstrumentation} do not see of
 * {@code CompletableFuture}'s async stages. Its tasks ({@code AsyncSupply}, {@code AsyncRun}, the {@code Completion}s
 * of {@code thenApplyAsync} and the like) are {@code ForkJoinTask}s: on the common pool they are captured and run as
 * fork-join tasks, on a {@code ThreadPoolExecutor} as its tasks. Two paths remain, covered here:
 * <ul>
 *   <li>Java 8 to 18 on a machine whose common pool has fewer than two threads (two cores): the default async
 *   executor is {@code ThreadPerTaskExecutor}, a new thread per task. Its {@code execute(task)} captures;</li>
 *   <li>the tasks' {@code run()}, which a plain executor calls (that one, a direct executor, any other), activates.</li>
 * </ul>
 * A task run through {@code doExec} or a pool's {@code beforeExecute} has given its context up already; {@code run()}
 * then finds nothing. The context an async stage runs in is the one active where the task is handed to its executor:
 * the caller's for {@code supplyAsync}/{@code runAsync}, and for a dependent stage ({@code thenApplyAsync}) that of the
 * thread that completed the stage before it (the caller's if it was complete already).
 */
public final class CompletableFutureInstrumentation extends Instrumentation {

    static final String PER_TASK_EXECUTOR = "java.util.concurrent.CompletableFuture$ThreadPerTaskExecutor";
    static final String ASYNC_SUPPLY = "java.util.concurrent.CompletableFuture$AsyncSupply";
    static final String ASYNC_RUN = "java.util.concurrent.CompletableFuture$AsyncRun";
    static final String COMPLETION = "java.util.concurrent.CompletableFuture$Completion";
    private static final String ADVICE = "dev.apmagent.plugin.concurrent.CompletableFutureInstrumentation$";
    private static final String HANDLERS = "dev.apmagent.plugin.concurrent.ForkJoinContext$";

    @Override
    public String name() {
        return "completable-future";
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("concurrent");
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return typeMatcher();
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(PER_TASK_EXECUTOR).or(named(ASYNC_SUPPLY)).or(named(ASYNC_RUN)).or(named(COMPLETION));
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(named("execute").and(takesArguments(Runnable.class)), ADVICE + "ExecuteAdvice"),
                new AdviceBinding(named("run").and(takesArguments(0)), ADVICE + "RunAdvice"));
    }

    @Override
    public List<String> bridgeHandlers() {
        return Arrays.asList(HANDLERS + "AsyncSubmit", HANDLERS + "AsyncRun");
    }

    /** {@code ThreadPerTaskExecutor.execute(task)}. */
    public static final class ExecuteAdvice {
        private ExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object executor, @Advice.Argument(0) Runnable task) {
            return Bridge.enter(Bridge.ASYNC_TASK_SUBMIT, executor, task, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object captured, @Advice.This Object executor, @Advice.Argument(0) Runnable task,
                                @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.ASYNC_TASK_SUBMIT, captured, executor, task, null, thrown);
        }
    }

    /** An async task's {@code run()}. */
    public static final class RunAdvice {
        private RunAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object task) {
            return Bridge.enter(Bridge.ASYNC_TASK_RUN, task, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object context, @Advice.This Object task, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.ASYNC_TASK_RUN, context, task, null, null, thrown);
        }
    }
}
