package dev.apmagent.plugin.servlet.javax;

import dev.apmagent.plugin.servlet.ServletHelper;
import net.bytebuddy.asm.Advice;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code javax-servlet-filter}: {@code Filter.doFilter(request, response, chain)}, so that a request answered by a
 * filter (security, static content) is traced too, and its transaction covers the whole filter chain.
 */
public final class JavaxServletFilterInstrumentation extends JavaxServletInstrumentation {

    private static final String ADVICE = "dev.apmagent.plugin.servlet.javax.JavaxServletFilterInstrumentation$FilterDoFilterAdvice";

    public JavaxServletFilterInstrumentation() {
        super("javax-servlet-filter", "Filter", "Filter");
    }

    @Override
    public List<AdviceBinding> advice() {
        return AdviceBinding.single(named("doFilter").and(not(isAbstract())).and(takesArguments(3))
                        .and(takesArgument(0, named(API + "ServletRequest")))
                        .and(takesArgument(1, named(API + "ServletResponse")))
                        .and(takesArgument(2, named(API + "FilterChain"))),
                ADVICE);
    }

    /** {@code Filter.doFilter(request, response, chain)}: starts the transaction when a filter is the first to run. */
    public static final class FilterDoFilterAdvice {
        private FilterDoFilterAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.Argument(0) Object request, @Advice.Argument(1) Object response) {
            return ServletHelper.enter(JavaxServletInstrumentation.adapters, type, null, request, response);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Origin Class<?> type, @Advice.Enter Object scope, @Advice.Argument(0) Object request,
                                @Advice.Argument(1) Object response, @Advice.Thrown Throwable thrown) {
            ServletHelper.exit(JavaxServletInstrumentation.adapters, type, scope, request, response, thrown);
        }
    }
}
