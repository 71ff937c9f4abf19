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
 * {@code apache-httpasyncclient-5}: HttpClient 5 async, every handler of the async exec chain,
 * {@code AsyncExecChainHandler.execute(HttpRequest, AsyncEntityProducer, AsyncExecChain.Scope, AsyncExecChain,
 * AsyncExecCallback)}. The client runs the chain's first pass on the thread that called {@code execute}: the outermost
 * handler starts the span, the handlers it calls are nested and write the trace headers into the request they pass
 * on; when it returns, its span is handed to the exchange callback it was given, which {@link ExchangeCompletion}
 * watches. A handler that runs on an I/O thread (a redirect or retry sent later) finds nothing active and does nothing.
 */
public final class Apache5AsyncInstrumentation extends ApacheInstrumentation {

    static final String CHAIN = "org.apache.hc.client5.http.async.AsyncExecChainHandler";
    static final String CALLBACK = "org.apache.hc.client5.http.async.AsyncExecCallback";

    public Apache5AsyncInstrumentation() {
        super("apache-httpasyncclient-5", CHAIN, "org.apache.hc.client5.", CHAIN);
    }

    @Override
    public List<AdviceBinding> advice() {
        ElementMatcher<MethodDescription> execute = named("execute").and(takesArguments(5))
                .and(takesArgument(0, named("org.apache.hc.core5.http.HttpRequest"))).and(not(isAbstract()));
        return AdviceBinding.single(execute, "dev.apmagent.plugin.apache.Apache5AsyncInstrumentation$ExecuteAdvice");
    }

    /** {@code execute(request, entityProducer, scope, chain, callback)}: a trampoline into {@link ApacheHttpHelper}. */
    public static final class ExecuteAdvice {
        private ExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.Argument(0) Object request) {
            return ApacheHttpHelper.enterAsync(ApacheHttpHelper.v5, type, request);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object call, @Advice.Origin Class<?> type, @Advice.Argument(4) Object callback,
                                @Advice.Thrown Throwable thrown) {
            ApacheHttpHelper.exitAsync(ApacheHttpHelper.v5, type, call, callback, thrown);
        }
    }

    /**
     * {@code apache-httpasyncclient-5-completion}: the client's exchange callbacks ({@code AsyncExecCallback}
     * implementations of HttpClient 5): {@code handleResponse(response, entity)} (the final response's head) and
     * {@code failed(exception)} end the pending span, before the application's callback or future sees anything.
     */
    public static final class ExchangeCompletion extends ApacheInstrumentation {

        public ExchangeCompletion() {
            super("apache-httpasyncclient-5-completion", CALLBACK, "org.apache.hc.client5.", CALLBACK);
        }

        @Override
        public List<AdviceBinding> advice() {
            return Arrays.asList(
                    new AdviceBinding(named("handleResponse").and(takesArguments(2)).and(not(isAbstract())),
                            "dev.apmagent.plugin.apache.Apache5AsyncInstrumentation$HandleResponseAdvice"),
                    new AdviceBinding(named("failed").and(takesArguments(1)).and(takesArgument(0, named("java.lang.Exception")))
                            .and(not(isAbstract())),
                            "dev.apmagent.plugin.apache.Apache5AsyncInstrumentation$FailedAdvice"));
        }
    }

    /** {@code AsyncExecCallback.handleResponse(response, entityDetails)}. */
    public static final class HandleResponseAdvice {
        private HandleResponseAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.Origin Class<?> type, @Advice.This Object callback, @Advice.Argument(0) Object response) {
            ApacheHttpHelper.complete(ApacheHttpHelper.v5, type, callback, response, null);
        }
    }

    /** {@code AsyncExecCallback.failed(exception)}. */
    public static final class FailedAdvice {
        private FailedAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.Origin Class<?> type, @Advice.This Object callback, @Advice.Argument(0) Throwable failure) {
            ApacheHttpHelper.complete(ApacheHttpHelper.v5, type, callback, null, failure);
        }
    }
}
