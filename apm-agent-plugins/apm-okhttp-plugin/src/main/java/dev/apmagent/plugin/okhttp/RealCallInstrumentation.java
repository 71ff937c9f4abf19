package dev.apmagent.plugin.okhttp;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.declaresField;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code okhttp}: OkHttp's one implementation of {@code okhttp3.Call}, {@code okhttp3.RealCall} (3.x) or
 * {@code okhttp3.internal.connection.RealCall} (4.x, 5.x):
 * <ul>
 *   <li>{@code execute()}: the exit span of a synchronous call, ended when it returns the response (headers read) or
 *   throws;</li>
 *   <li>{@code enqueue(Callback)}: the exit span of an asynchronous call, handed over when it returns;</li>
 *   <li>{@code getResponseWithInterceptorChain} (3.0: with a boolean; 4.x and 5.x: Kotlin's internal name
 *   {@code getResponseWithInterceptorChain$okhttp}): where an enqueued call's response or failure arrives.</li>
 * </ul>
 * Both entry points replace the call's {@code originalRequest} (a final field from 3.1 on, written by the advice as
 * the class file versions of every OkHttp 3-5 allow: 51 and 52) with a copy that carries the trace headers, so every
 * attempt of the call (retries, redirects: OkHttp builds them from this request) sends them.
 */
public final class RealCallInstrumentation extends OkHttpInstrumentation {

    /** The context key type: enqueued calls keep their state in a field of {@code RealCall}. */
    static final String CALL_TYPE = "okhttp3.Call";
    static final String REAL_CALL_3 = "okhttp3.RealCall";
    static final String REAL_CALL_4 = "okhttp3.internal.connection.RealCall";
    private static final String ADVICE = "dev.apmagent.plugin.okhttp.RealCallInstrumentation$";

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(REAL_CALL_3).or(named(REAL_CALL_4));
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(REAL_CALL_3).or(named(REAL_CALL_4)).and(declaresField(named("originalRequest")));
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(isPublic().and(named("execute")).and(takesArguments(0)), ADVICE + "ExecuteAdvice"),
                new AdviceBinding(isPublic().and(named("enqueue")).and(takesArguments(1))
                        .and(takesArgument(0, named("okhttp3.Callback"))), ADVICE + "EnqueueAdvice"),
                new AdviceBinding(nameStartsWith("getResponseWithInterceptorChain").and(returns(named("okhttp3.Response"))),
                        ADVICE + "ResponseAdvice"));
    }

    @Override
    public List<String> contextKeyTypes() {
        return Collections.singletonList(CALL_TYPE);
    }

    /** {@code execute()}: a trampoline into {@link OkHttpHelper}. */
    public static final class ExecuteAdvice {
        private ExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type,
                                   @Advice.FieldValue(value = "originalRequest", readOnly = false, typing = Assigner.Typing.DYNAMIC) Object request) {
            Object traced = OkHttpHelper.enterExecute(type, request);
            if (traced != null) {
                request = OkHttpHelper.requestToSend(traced, request);
            }
            return traced;
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object traced, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
            OkHttpHelper.exitExecute(traced, response, thrown);
        }
    }

    /** {@code enqueue(callback)}: a trampoline into {@link OkHttpHelper}. */
    public static final class EnqueueAdvice {
        private EnqueueAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.This Object call,
                                   @Advice.FieldValue(value = "originalRequest", readOnly = false, typing = Assigner.Typing.DYNAMIC) Object request) {
            Object traced = OkHttpHelper.enterEnqueue(type, call, request);
            if (traced != null) {
                request = OkHttpHelper.requestToSend(traced, request);
            }
            return traced;
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object traced, @Advice.This Object call, @Advice.Thrown Throwable thrown) {
            OkHttpHelper.exitEnqueue(traced, call, thrown);
        }
    }

    /** {@code getResponseWithInterceptorChain}: where an enqueued call's response or failure arrives. */
    public static final class ResponseAdvice {
        private ResponseAdvice() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Origin Class<?> type, @Advice.This Object call, @Advice.Return Object response,
                                @Advice.Thrown Throwable thrown) {
            OkHttpHelper.responseArrived(type, call, response, thrown);
        }
    }
}
