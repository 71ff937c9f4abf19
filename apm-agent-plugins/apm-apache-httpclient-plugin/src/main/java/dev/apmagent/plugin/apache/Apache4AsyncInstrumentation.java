package dev.apmagent.plugin.apache;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code apache-httpasyncclient-4}: HttpAsyncClient 4.1,
 * {@code HttpAsyncClient.execute(HttpAsyncRequestProducer, HttpAsyncResponseConsumer, HttpContext, FutureCallback)},
 * the method every other {@code execute} overload calls. It starts the span, writes the trace headers into the
 * request the producer holds (the application's request object: the client sends that one) and hands the span to
 * the response consumer it was given, which {@link ResponseCompletion} watches.
 */
public final class Apache4AsyncInstrumentation extends ApacheInstrumentation {

    static final String CLIENT = "org.apache.http.nio.client.HttpAsyncClient";

    public Apache4AsyncInstrumentation() {
        super("apache-httpasyncclient-4", CLIENT, "org.apache.http.impl.nio.client.", CLIENT);
    }

    @Override
    public List<AdviceBinding> advice() {
        ElementMatcher<MethodDescription> execute = named("execute").and(takesArguments(4))
                .and(takesArgument(0, named("org.apache.http.nio.protocol.HttpAsyncRequestProducer"))).and(not(isAbstract()));
        return AdviceBinding.single(execute, "dev.apmagent.plugin.apache.Apache4AsyncInstrumentation$ExecuteAdvice");
    }

    /** {@code execute(producer, consumer, context, callback)}: a trampoline into {@link ApacheHttpHelper}. */
    public static final class ExecuteAdvice {
        private ExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.Argument(0) Object producer) {
            return ApacheHttpHelper.enterAsync(ApacheHttpHelper.v4, type, producer);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object call, @Advice.Origin Class<?> type, @Advice.Argument(1) Object consumer,
                                @Advice.Thrown Throwable thrown) {
            ApacheHttpHelper.exitAsync(ApacheHttpHelper.v4, type, call, consumer, thrown);
        }
    }

    /**
     * {@code apache-httpasyncclient-4-completion}: httpcore-nio's {@code AbstractAsyncResponseConsumer}, the base of
     * every response consumer the client makes ({@code BasicAsyncResponseConsumer}) and of the zero-copy one:
     * {@code responseReceived(response)} (the final response's head), {@code failed(exception)} and {@code cancel()}
     * end the pending span, before the future calls the application's callback. For a consumer of no traced request it
     * is two reads (see {@link ApacheHttpHelper#complete}).
     */
    public static final class ResponseCompletion extends ApacheInstrumentation {

        static final String CONSUMER = "org.apache.http.nio.protocol.AbstractAsyncResponseConsumer";

        public ResponseCompletion() {
            super("apache-httpasyncclient-4-completion", CLIENT, CONSUMER, CONSUMER);
        }

        @Override
        public List<AdviceBinding> advice() {
            return Arrays.asList(
                    new AdviceBinding(named("responseReceived").and(takesArguments(1)),
                            "dev.apmagent.plugin.apache.Apache4AsyncInstrumentation$ResponseReceivedAdvice"),
                    new AdviceBinding(named("failed").and(takesArguments(1)).and(takesArgument(0, named("java.lang.Exception"))),
                            "dev.apmagent.plugin.apache.Apache4AsyncInstrumentation$FailedAdvice"),
                    new AdviceBinding(named("cancel").and(takesArguments(0)),
                            "dev.apmagent.plugin.apache.Apache4AsyncInstrumentation$CancelAdvice"));
        }
    }

    /** {@code AbstractAsyncResponseConsumer.responseReceived(response)}. */
    public static final class ResponseReceivedAdvice {
        private ResponseReceivedAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.Origin Class<?> type, @Advice.This Object consumer, @Advice.Argument(0) Object response) {
            ApacheHttpHelper.complete(ApacheHttpHelper.v4, type, consumer, response, null);
        }
    }

    /** {@code AbstractAsyncResponseConsumer.failed(exception)}. */
    public static final class FailedAdvice {
        private FailedAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.Origin Class<?> type, @Advice.This Object consumer, @Advice.Argument(0) Throwable failure) {
            ApacheHttpHelper.complete(ApacheHttpHelper.v4, type, consumer, null, failure);
        }
    }

    /** {@code AbstractAsyncResponseConsumer.cancel()}. */
    public static final class CancelAdvice {
        private CancelAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.Origin Class<?> type, @Advice.This Object consumer) {
            ApacheHttpHelper.cancel(ApacheHttpHelper.v4, type, consumer);
        }
    }
}
