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
 * {@code thread-start}, experimental (off unless {@code enable_experimental_instrumentations=true}): a new platform
 * {@code Thread} started while an event is active runs its {@code Runnable} with that event active.
 * {@code Thread.start()} (and Java 21's {@code start(container)}, of a thread-per-task executor) captures for the
 * thread object, {@code Thread.run()} activates, {@code Thread.exit()} releases what a thread that never reached
 * {@code Thread.run} still holds. Off by default because a thread is not a task: a long-lived thread started inside a
 * request (a lazily started client's I/O loop) would run in that request's transaction for life; a pool's workers
 * ({@code ThreadPoolExecutor.addWorker}), subclasses of {@code Thread} and the agent's threads are left out.
 */
public final class ThreadStartInstrumentation extends Instrumentation {

    static final String TYPE = "java.lang.Thread";
    private static final String ADVICE = "dev.apmagent.plugin.concurrent.ThreadStartInstrumentation$";
    private static final String HANDLERS = "dev.apmagent.plugin.concurrent.ThreadContext$";

    @Override
    public String name() {
        return "thread-start";
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("concurrent", Instrumentation.EXPERIMENTAL);
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(TYPE).or(named(ExecutorInstrumentation.TYPE));
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(TYPE).or(named(ExecutorInstrumentation.TYPE));
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(named("start").and(takesArguments(0).or(takesArguments(1))), ADVICE + "StartAdvice"),
                new AdviceBinding(named("run").and(takesArguments(0)), ADVICE + "RunAdvice"),
                new AdviceBinding(named("exit").and(takesArguments(0)), ADVICE + "ExitAdvice"),
                new AdviceBinding(named("addWorker").and(takesArguments(2)), ADVICE + "AddWorkerAdvice"));
    }

    @Override
    public List<String> bridgeHandlers() {
        return Arrays.asList(HANDLERS + "Start", HANDLERS + "Run", HANDLERS + "Exit", HANDLERS + "AddWorker");
    }

    /** {@code Thread.start()}, {@code Thread.start(container)}. */
    public static final class StartAdvice {
        private StartAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object thread) {
            return Bridge.enter(Bridge.THREAD_START, thread, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object captured, @Advice.This Object thread, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.THREAD_START, captured, thread, null, null, thrown);
        }
    }

    /** {@code Thread.run()}. */
    public static final class RunAdvice {
        private RunAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object thread) {
            return Bridge.enter(Bridge.THREAD_RUN, thread, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object context, @Advice.This Object thread, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.THREAD_RUN, context, thread, null, null, thrown);
        }
    }

    /** {@code Thread.exit()}. */
    public static final class ExitAdvice {
        private ExitAdvice() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Object thread, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.THREAD_EXIT, null, thread, null, null, thrown);
        }
    }

    /** {@code ThreadPoolExecutor.addWorker(firstTask, core)}. */
    public static final class AddWorkerAdvice {
        private AddWorkerAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object executor) {
            return Bridge.enter(Bridge.EXECUTOR_ADD_WORKER, executor, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object depth, @Advice.This Object executor, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.EXECUTOR_ADD_WORKER, depth, executor, null, null, thrown);
        }
    }
}
