package dev.apmagent.plugin.okhttp;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code okhttp}: the run of an enqueued call on OkHttp's dispatcher thread, {@code RealCall$AsyncCall.execute()} (3.x,
 * called by {@code NamedRunnable.run}) or {@code run()} (4.x, 5.x). Its enter activates the context of the application
 * thread that enqueued the call, its exit deactivates it; the application's callback runs in between. The call is the
 * inner class's {@code this$0}.
 */
public final class AsyncCallInstrumentation extends OkHttpInstrumentation {

    private static final String ASYNC_CALL_3 = RealCallInstrumentation.REAL_CALL_3 + "$AsyncCall";
    private static final String ASYNC_CALL_4 = RealCallInstrumentation.REAL_CALL_4 + "$AsyncCall";

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(ASYNC_CALL_3).or(named(ASYNC_CALL_4));
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(ASYNC_CALL_3).or(named(ASYNC_CALL_4));
    }

    @Override
    public List<AdviceBinding> advice() {
        return AdviceBinding.single(named("execute").or(named("run")).and(takesArguments(0)).and(returns(void.class)),
                "dev.apmagent.plugin.okhttp.AsyncCallInstrumentation$RunAdvice");
    }

    /** {@code execute()} or {@code run()}: a trampoline into {@link OkHttpHelper}. */
    public static final class RunAdvice {
        private RunAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.FieldValue(value = "this$0", typing = Assigner.Typing.DYNAMIC) Object call) {
            return OkHttpHelper.asyncRunStarts(call);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object state, @Advice.FieldValue(value = "this$0", typing = Assigner.Typing.DYNAMIC) Object call) {
            OkHttpHelper.asyncRunEnds(state, call);
        }
    }
}
