package dev.apmagent.plugin.apache;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code apache-httpclient-5}: HttpClient 5 classic, every handler of the exec chain,
 * {@code ExecChainHandler.execute(ClassicHttpRequest, ExecChain.Scope, ExecChain)} (redirect, retry, protocol,
 * connect, main, and those the application adds). The outermost records the span, the others are nested in it (see
 * {@link ApacheHttpHelper}). The client hands the chain a copy of the application's request: the trace headers go
 * into that copy.
 */
public final class Apache5ClassicInstrumentation extends ApacheInstrumentation {

    static final String CHAIN = "org.apache.hc.client5.http.classic.ExecChainHandler";

    public Apache5ClassicInstrumentation() {
        super("apache-httpclient-5", CHAIN, "org.apache.hc.client5.", CHAIN);
    }

    @Override
    public List<AdviceBinding> advice() {
        ElementMatcher<MethodDescription> execute = named("execute").and(takesArguments(3))
                .and(takesArgument(0, named("org.apache.hc.core5.http.ClassicHttpRequest"))).and(not(isAbstract()));
        return AdviceBinding.single(execute, "dev.apmagent.plugin.apache.Apache5ClassicInstrumentation$ExecuteAdvice");
    }

    /** {@code execute(request, scope, chain)}: a trampoline into {@link ApacheHttpHelper}. */
    public static final class ExecuteAdvice {
        private ExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.Argument(0) Object request) {
            return ApacheHttpHelper.enter(ApacheHttpHelper.v5, type, request);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object call, @Advice.Origin Class<?> type, @Advice.Return Object response,
                                @Advice.Thrown Throwable thrown) {
            ApacheHttpHelper.exit(ApacheHttpHelper.v5, type, call, response, thrown);
        }
    }
}
