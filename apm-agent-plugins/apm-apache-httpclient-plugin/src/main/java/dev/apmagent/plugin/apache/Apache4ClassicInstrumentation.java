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
 * {@code apache-httpclient-4}: HttpClient 4.3-4.5, every handler of the classic exec chain,
 * {@code ClientExecChain.execute(HttpRoute, HttpRequestWrapper, HttpClientContext, HttpExecutionAware)} (redirect,
 * retry, back-off, protocol, main; the minimal client's own). The outermost one records the span, the others are
 * nested in it (see {@link ApacheHttpHelper}). The request is the client's wrapper of the application's: the trace
 * headers go into the wrapper, never into the application's request object.
 */
public final class Apache4ClassicInstrumentation extends ApacheInstrumentation {

    static final String CHAIN = "org.apache.http.impl.execchain.ClientExecChain";

    public Apache4ClassicInstrumentation() {
        super("apache-httpclient-4", CHAIN, "org.apache.http.impl.", CHAIN);
    }

    @Override
    public List<AdviceBinding> advice() {
        ElementMatcher<MethodDescription> execute = named("execute").and(takesArguments(4))
                .and(takesArgument(1, named("org.apache.http.client.methods.HttpRequestWrapper"))).and(not(isAbstract()));
        return AdviceBinding.single(execute, "dev.apmagent.plugin.apache.Apache4ClassicInstrumentation$ExecuteAdvice");
    }

    /** {@code execute(route, request, context, execAware)}: a trampoline into {@link ApacheHttpHelper}. */
    public static final class ExecuteAdvice {
        private ExecuteAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.Argument(1) Object request) {
            return ApacheHttpHelper.enter(ApacheHttpHelper.v4, type, request);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object call, @Advice.Origin Class<?> type, @Advice.Return Object response,
                                @Advice.Thrown Throwable thrown) {
            ApacheHttpHelper.exit(ApacheHttpHelper.v4, type, call, response, thrown);
        }
    }
}
