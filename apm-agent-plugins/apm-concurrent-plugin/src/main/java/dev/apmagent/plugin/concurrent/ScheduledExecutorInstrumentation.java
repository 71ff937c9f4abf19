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
 * {@code scheduled-executor} (group {@code executor}, as the Elastic agent's): {@code ScheduledThreadPoolExecutor}.
 * Every {@code schedule}, {@code scheduleAtFixedRate}, {@code scheduleWithFixedDelay}, {@code execute} and
 * {@code submit} goes through the private {@code delayedExecute(task)} with the pool's own task object (a
 * {@code ScheduledFutureTask}, or what {@code decorateTask} returned: the object {@code getQueue()} holds and the
 * application's future); the caller's event is captured there for that object. The worker runs it through
 * {@code ThreadPoolExecutor}'s {@code beforeExecute}/{@code afterExecute}, which {@link ExecutorInstrumentation}
 * advises: the context is activated for the first run and forgotten then, so a periodic task carries its context
 * into its first run only and never pins a transaction that ended (its later runs start with nothing active).
 * {@code ScheduledFutureTask.cancel} releases the context of a task cancelled before it ran (with
 * {@code setRemoveOnCancelPolicy(true)} it never reaches a worker).
 */
public final class ScheduledExecutorInstrumentation extends Instrumentation {

    static final String TYPE = "java.util.concurrent.ScheduledThreadPoolExecutor";
    static final String TASK_TYPE = "java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask";
    private static final String ADVICE = "dev.apmagent.plugin.concurrent.ScheduledExecutorInstrumentation$";
    private static final String HANDLERS = "dev.apmagent.plugin.concurrent.ExecutorContext$";

    @Override
    public String name() {
        return "scheduled-executor";
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("executor", "concurrent");
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(TYPE).or(named(TASK_TYPE));
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(TYPE).or(named(TASK_TYPE));
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(named("delayedExecute").and(takesArguments(1)), ADVICE + "DelayedExecuteAdvice"),
                new AdviceBinding(named("cancel").and(takesArguments(boolean.class)), ADVICE + "CancelAdvice"));
    }

    @Override
    public List<String> bridgeHandlers() {
        return Arrays.asList(HANDLERS + "DelayedExecute", HANDLERS + "ScheduledCancel");
    }

    /** {@code delayedExecute(task)}: remember the caller's context for the pool's task; forget it if that throws. */
    public static final class DelayedExecuteAdvice {
        private DelayedExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object executor, @Advice.Argument(0) Object task) {
            return Bridge.enter(Bridge.SCHEDULED_DELAYED_EXECUTE, executor, task, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object captured, @Advice.This Object executor, @Advice.Argument(0) Object task,
                                @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.SCHEDULED_DELAYED_EXECUTE, captured, executor, task, null, thrown);
        }
    }

    /** {@code ScheduledFutureTask.cancel(mayInterrupt)}: a cancelled task that has not run gives its context back. */
    public static final class CancelAdvice {
        private CancelAdvice() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Object task, @Advice.Return boolean cancelled, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.SCHEDULED_TASK_CANCEL, null, task, null, Boolean.valueOf(cancelled), thrown);
        }
    }
}
