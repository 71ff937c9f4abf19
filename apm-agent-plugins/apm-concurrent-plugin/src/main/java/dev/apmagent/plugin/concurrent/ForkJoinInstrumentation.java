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
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code fork-join} (the Elastic agent's group name): {@code ForkJoinPool} and {@code ForkJoinTask}, and so parallel
 * streams and {@code CompletableFuture}'s async stages on the common pool.
 *
 * <p>Capture, where the pool receives a {@code ForkJoinTask} (its own adapter when the application passed a
 * {@code Runnable} or {@code Callable}: the JDK wraps those itself, the agent wraps nothing):
 * <ul>
 *   <li>{@code ForkJoinPool.externalSubmit(task)} (private on Java 8 to 19, where {@code execute}, {@code submit},
 *   {@code invoke} and {@code invokeAll} go through it; public since 20) and {@code externalPush(task)} (Java 8 to 19:
 *   where Java 8's {@code execute} and {@code submit} go, and a {@code fork} outside a pool);</li>
 *   <li>{@code ForkJoinPool.poolSubmit(signal, task)} (Java 21+: {@code execute}, {@code submit}, {@code invoke},
 *   {@code invokeAll}, {@code lazySubmit});</li>
 *   <li>{@code ForkJoinTask.fork()}.</li>
 * </ul>
 * Run: {@code ForkJoinTask.doExec()}, which every path that runs a task goes through (a worker's scan, a join that
 * runs the task it waits for, a helper). The pool that schedules virtual threads is left out: its tasks are their
 * continuations. Where one submission passes two of these methods (Java 17's {@code externalSubmit} calls
 * {@code externalPush}), the second finds the task remembered already and leaves it.
 */
public final class ForkJoinInstrumentation extends Instrumentation {

    static final String POOL = "java.util.concurrent.ForkJoinPool";
    static final String TASK = "java.util.concurrent.ForkJoinTask";
    private static final String ADVICE = "dev.apmagent.plugin.concurrent.ForkJoinInstrumentation$";
    private static final String HANDLERS = "dev.apmagent.plugin.concurrent.ForkJoinContext$";

    @Override
    public String name() {
        return "fork-join";
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("concurrent");
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(POOL).or(named(TASK));
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(POOL).or(named(TASK));
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(named("externalSubmit").or(named("externalPush")).and(takesArguments(1))
                        .and(takesArgument(0, named(TASK))), ADVICE + "ExternalSubmitAdvice"),
                new AdviceBinding(named("poolSubmit").and(takesArguments(2)).and(takesArgument(1, named(TASK))),
                        ADVICE + "PoolSubmitAdvice"),
                new AdviceBinding(named("fork").and(takesArguments(0)), ADVICE + "ForkAdvice"),
                new AdviceBinding(named("doExec").and(takesArguments(0)), ADVICE + "DoExecAdvice"));
    }

    @Override
    public List<String> bridgeHandlers() {
        return Arrays.asList(HANDLERS + "Submit", HANDLERS + "Fork", HANDLERS + "Exec");
    }

    /** {@code externalSubmit(task)}, {@code externalPush(task)}. */
    public static final class ExternalSubmitAdvice {
        private ExternalSubmitAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object pool, @Advice.Argument(0) Object task) {
            return Bridge.enter(Bridge.FORK_JOIN_SUBMIT, pool, task, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object captured, @Advice.This Object pool, @Advice.Argument(0) Object task,
                                @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.FORK_JOIN_SUBMIT, captured, pool, task, null, thrown);
        }
    }

    /** {@code poolSubmit(signalIfEmpty, task)} (Java 21+). */
    public static final class PoolSubmitAdvice {
        private PoolSubmitAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object pool, @Advice.Argument(1) Object task) {
            return Bridge.enter(Bridge.FORK_JOIN_SUBMIT, pool, task, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object captured, @Advice.This Object pool, @Advice.Argument(1) Object task,
                                @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.FORK_JOIN_SUBMIT, captured, pool, task, null, thrown);
        }
    }

    /** {@code fork()}. */
    public static final class ForkAdvice {
        private ForkAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object task) {
            return Bridge.enter(Bridge.FORK_JOIN_FORK, task, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object captured, @Advice.This Object task, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.FORK_JOIN_FORK, captured, task, null, null, thrown);
        }
    }

    /** {@code doExec()}: the task's context for its run. */
    public static final class DoExecAdvice {
        private DoExecAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object task) {
            return Bridge.enter(Bridge.FORK_JOIN_EXEC, task, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object context, @Advice.This Object task, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.FORK_JOIN_EXEC, context, task, null, null, thrown);
        }
    }
}
