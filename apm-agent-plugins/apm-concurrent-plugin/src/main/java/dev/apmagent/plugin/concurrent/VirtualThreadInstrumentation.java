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
 * {@code virtual-thread} (Java 21+): {@code java.lang.VirtualThread}. {@code start(container)}, which
 * {@code Thread.ofVirtual().start}, {@code Thread.startVirtualThread}, a started builder's thread and
 * {@code Executors.newVirtualThreadPerTaskExecutor()} all reach, captures the caller's event for the thread object;
 * the private {@code run(task)}, which runs the thread's task on the virtual thread itself, activates it for the
 * whole task. Parking and unparking do not matter: the event stays on the virtual thread's own stack, whichever
 * carrier it is mounted on, and the carriers' pool is left out of {@link ForkJoinInstrumentation}.
 */
public final class VirtualThreadInstrumentation extends Instrumentation {

    static final String TYPE = "java.lang.VirtualThread";
    private static final String ADVICE = "dev.apmagent.plugin.concurrent.VirtualThreadInstrumentation$";
    private static final String HANDLERS = "dev.apmagent.plugin.concurrent.ThreadContext$";

    @Override
    public String name() {
        return "virtual-thread";
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("concurrent");
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(TYPE);
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(TYPE);
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(named("start").and(takesArguments(1)), ADVICE + "StartAdvice"),
                new AdviceBinding(named("run").and(takesArguments(1)).and(takesArgument(0, Runnable.class)), ADVICE + "RunAdvice"));
    }

    @Override
    public List<String> bridgeHandlers() {
        return Arrays.asList(HANDLERS + "VirtualStart", HANDLERS + "VirtualRun");
    }

    /** {@code start(container)}. */
    public static final class StartAdvice {
        private StartAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object thread) {
            return Bridge.enter(Bridge.VIRTUAL_THREAD_START, thread, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object captured, @Advice.This Object thread, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.VIRTUAL_THREAD_START, captured, thread, null, null, thrown);
        }
    }

    /** {@code run(task)}, on the virtual thread. */
    public static final class RunAdvice {
        private RunAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object thread) {
            return Bridge.enter(Bridge.VIRTUAL_THREAD_RUN, thread, null, null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object context, @Advice.This Object thread, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.VIRTUAL_THREAD_RUN, context, thread, null, null, thrown);
        }
    }
}
