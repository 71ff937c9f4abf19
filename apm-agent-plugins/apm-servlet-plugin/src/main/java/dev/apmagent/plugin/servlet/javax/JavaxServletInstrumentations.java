package dev.apmagent.plugin.servlet.javax;

import dev.apmagent.plugin.LibraryHelper;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.servlet.ServletAdapter;
import dev.apmagent.plugin.servlet.ServletTracing;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static dev.apmagent.plugin.ClassLoaderHasClass.hasClassNamed;
import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * The instrumentations of the {@code javax} servlet API: {@code Servlet.service}, {@code Filter.doFilter} and
 * {@code AsyncContext.start}. The build generates the {@code jakarta} twin of this package by replacing the
 * namespace (see this module's pom), so both namespaces are traced by the same code.
 */
public final class JavaxServletInstrumentations {

    /** The adapter over the servlet API as the instrumented class's loader sees it. */
    public static final LibraryHelper<ServletAdapter> ADAPTER = new LibraryHelper<ServletAdapter>(ServletAdapter.class,
            "dev.apmagent.plugin.servlet.javax.helper.JavaxServletAdapter", "dev.apmagent.plugin.servlet.javax.helper.");

    private static final String NAMESPACE = "javax";
    private static final String API = "javax.servlet.";

    private JavaxServletInstrumentations() {
    }

    public static List<Instrumentation> all() {
        return Arrays.<Instrumentation>asList(new Service(), new DoFilter(), new AsyncStart());
    }

    private abstract static class Base extends Instrumentation {
        @Override
        public Collection<String> groupNames() {
            return Arrays.asList("servlet-api", NAMESPACE + "-servlet");
        }

        @Override
        public ElementMatcher<ClassLoader> classLoaderMatcher() {
            return hasClassNamed(API + "AsyncContext"); // Servlet 3.0 and later
        }
    }

    static final class Service extends Base {
        @Override
        public String name() {
            return NAMESPACE + "-servlet-service";
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
            return nameContains("Servlet");
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeMatcher() {
            return not(isInterface()).and(hasSuperType(named(API + "Servlet")));
        }

        @Override
        public List<AdviceBinding> advice() {
            return AdviceBinding.single(named("service").and(not(isAbstract())).and(takesArguments(2))
                    .and(takesArgument(0, named(API + "ServletRequest")))
                    .and(takesArgument(1, named(API + "ServletResponse"))),
                    ServiceAdvice.class.getName());
        }
    }

    static final class DoFilter extends Base {
        @Override
        public String name() {
            return NAMESPACE + "-servlet-filter";
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
            return nameContains("Filter");
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeMatcher() {
            return not(isInterface()).and(hasSuperType(named(API + "Filter")));
        }

        @Override
        public List<AdviceBinding> advice() {
            return AdviceBinding.single(named("doFilter").and(not(isAbstract())).and(takesArguments(3))
                    .and(takesArgument(0, named(API + "ServletRequest")))
                    .and(takesArgument(1, named(API + "ServletResponse")))
                    .and(takesArgument(2, named(API + "FilterChain"))),
                    FilterAdvice.class.getName());
        }
    }

    static final class AsyncStart extends Base {
        @Override
        public String name() {
            return NAMESPACE + "-servlet-async";
        }

        @Override
        public Collection<String> groupNames() {
            return Arrays.asList("servlet-api", "servlet-api-async", NAMESPACE + "-servlet");
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
            return nameContains("Async");
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeMatcher() {
            return not(isInterface()).and(hasSuperType(named(API + "AsyncContext")));
        }

        @Override
        public List<AdviceBinding> advice() {
            return AdviceBinding.single(named("start").and(not(isAbstract())).and(takesArguments(Runnable.class)),
                    AsyncStartAdvice.class.getName());
        }
    }

    /** {@code Servlet.service(request, response)}: a trampoline into {@link ServletTracing}. */
    public static final class ServiceAdvice {
        private ServiceAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.This Object servlet,
                                   @Advice.Argument(0) Object request, @Advice.Argument(1) Object response) {
            return ServletTracing.onEnter(ADAPTER, type, servlet, request, response);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Origin Class<?> type, @Advice.Enter Object scope, @Advice.Argument(0) Object request,
                                @Advice.Argument(1) Object response, @Advice.Thrown Throwable thrown) {
            ServletTracing.onExit(ADAPTER, type, scope, request, response, thrown);
        }
    }

    /** {@code Filter.doFilter(request, response, chain)}: starts the transaction when a filter is the first to run. */
    public static final class FilterAdvice {
        private FilterAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.Origin Class<?> type, @Advice.Argument(0) Object request, @Advice.Argument(1) Object response) {
            return ServletTracing.onEnter(ADAPTER, type, null, request, response);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Origin Class<?> type, @Advice.Enter Object scope, @Advice.Argument(0) Object request,
                                @Advice.Argument(1) Object response, @Advice.Thrown Throwable thrown) {
            ServletTracing.onExit(ADAPTER, type, scope, request, response, thrown);
        }
    }

    /** {@code AsyncContext.start(task)}: the task runs with the request's transaction active. */
    public static final class AsyncStartAdvice {
        private AsyncStartAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
            task = ServletTracing.wrap(task);
        }
    }
}
