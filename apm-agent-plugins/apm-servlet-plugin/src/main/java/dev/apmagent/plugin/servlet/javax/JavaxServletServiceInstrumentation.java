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
 * {@code javax-servlet-service}: {@code Servlet.service(request, response)}. The first servlet of a request starts (or
 * names) its transaction; {@code HttpServlet.service} covers every HTTP servlet whatever its own name.
 */
public final class JavaxServletServiceInstrumentation extends JavaxServletInstrumentation {

    private static final String ADVICE = "dev.apmagent.plugin.servlet.javax.JavaxServletServiceInstrumentation$ServletServiceAdvice";

    public JavaxServletServiceInstrumentation() {
        super("javax-servlet-service", "Servlet", "Servlet");
    }

    @Override
    public List<AdviceBinding> advice() {
        return AdviceBinding.single(named("service").and(not(isAbstract())).and(takesArguments(2))
                        .and(takesArgument(0, named(API + "ServletRequest")))
                        .and(takesArgument(1, named(API + "ServletResponse"))),
                ADVICE);
    }

    /** {@code Servlet.service(request, response)}: a trampoline into {@link ServletHelper}. */
    public static final class ServletServiceAdvice {
        private ServletServiceAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.This Object servlet,
                                   @Advice.Argument(0) Object request, @Advice.Argument(1) Object response) {
            return ServletHelper.enter(JavaxServletInstrumentation.adapters, type, servlet, request, response);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Origin Class<?> type, @Advice.Enter Object scope, @Advice.Argument(0) Object request,
                                @Advice.Argument(1) Object response, @Advice.Thrown Throwable thrown) {
            ServletHelper.exit(JavaxServletInstrumentation.adapters, type, scope, request, response, thrown);
        }
    }
}
