package dev.apmagent.plugin.servlet.javax;

import dev.apmagent.plugin.servlet.ServletHelper;
import net.bytebuddy.asm.Advice;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code javax-servlet-async}: {@code AsyncContext.start(task)}, so that the spans of a task an asynchronous request
 * hands to the container belong to the request's transaction.
 */
public final class JavaxServletAsyncInstrumentation extends JavaxServletInstrumentation {

    private static final String ADVICE = "dev.apmagent.plugin.servlet.javax.JavaxServletAsyncInstrumentation$AsyncContextStartAdvice";

    public JavaxServletAsyncInstrumentation() {
        super("javax-servlet-async", "Async", "AsyncContext");
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("servlet-api", "servlet-api-async", "javax-servlet");
    }

    @Override
    public List<AdviceBinding> advice() {
        return AdviceBinding.single(named("start").and(not(isAbstract())).and(takesArguments(Runnable.class)), ADVICE);
    }

    /** {@code AsyncContext.start(task)}: the task runs with the request's transaction active. */
    public static final class AsyncContextStartAdvice {
        private AsyncContextStartAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
            task = ServletHelper.wrap(task);
        }
    }
}
