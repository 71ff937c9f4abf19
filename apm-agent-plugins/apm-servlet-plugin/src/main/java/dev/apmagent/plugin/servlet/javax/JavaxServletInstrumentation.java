package dev.apmagent.plugin.servlet.javax;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.LibraryHelper;
import dev.apmagent.plugin.servlet.ServletAdapter;
import dev.apmagent.plugin.servlet.ServletHelper;
import net.bytebuddy.asm.Advice;
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
 * The instrumentations of the {@code javax} servlet API, one nested class each with its advice
 * ({@link Service} {@code Servlet.service}, {@link DoFilter} {@code Filter.doFilter}, {@link AsyncStart}
 * {@code AsyncContext.start}), and what they share: their groups, the class-loader marker, the way they match types,
 * and the adapter their advice reaches. The build generates the {@code jakarta} twin of this package by replacing the
 * namespace (see this module's pom), so both namespaces are traced by the same code.
 */
public abstract class JavaxServletInstrumentation extends Instrumentation {

    /** The adapter over the servlet API as the instrumented class's loader sees it. */
    public static final LibraryHelper<ServletAdapter> adapters = new LibraryHelper<ServletAdapter>(ServletAdapter.class,
            "dev.apmagent.plugin.servlet.javax.helper.JavaxServletAdapter", "dev.apmagent.plugin.servlet.javax.helper.",
            "dev.apmagent.plugin.servlet.tomcat.");

    static final String API = "javax.servlet.";

    private final String name;
    private final ElementMatcher<? super TypeDescription> preFilter;
    private final ElementMatcher<? super TypeDescription> implementations;

    /**
     * @param name         the instrumentation's name
     * @param nameFragment what the name of a class of interest contains (the only test every loaded class is put to)
     * @param apiType      the API type whose implementations are instrumented, without the package
     */
    JavaxServletInstrumentation(String name, String nameFragment, String apiType) {
        this.name = name;
        this.preFilter = nameContains(nameFragment);
        this.implementations = not(isInterface()).and(hasSuperType(named(API + apiType)));
    }

    public static List<Instrumentation> all() {
        return Arrays.<Instrumentation>asList(new Service(), new DoFilter(), new AsyncStart());
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("servlet-api", "javax-servlet");
    }

    @Override
    public final ElementMatcher<ClassLoader> classLoaderMatcher() {
        return hasClassNamed(API + "AsyncContext"); // Servlet 3.0 and later
    }

    @Override
    public final ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return preFilter;
    }

    @Override
    public final ElementMatcher<? super TypeDescription> typeMatcher() {
        return implementations;
    }

    /**
     * {@code javax-servlet-service}: {@code Servlet.service(request, response)}. The first servlet of a request starts (or
     * names) its transaction; {@code HttpServlet.service} covers every HTTP servlet whatever its own name.
     */
    public static final class Service extends JavaxServletInstrumentation {

        private static final String ADVICE = "dev.apmagent.plugin.servlet.javax.JavaxServletInstrumentation$Service$ServletServiceAdvice";

        Service() {
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
                return ServletHelper.enter(adapters, type, servlet, request, response);
            }

            @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
            public static void exit(@Advice.Origin Class<?> type, @Advice.Enter Object scope, @Advice.Argument(0) Object request,
                                    @Advice.Argument(1) Object response, @Advice.Thrown Throwable thrown) {
                ServletHelper.exit(adapters, type, scope, request, response, thrown);
            }
        }
    }

    /**
     * {@code javax-servlet-filter}: {@code Filter.doFilter(request, response, chain)}, so that a request answered by a
     * filter (security, static content) is traced too, and its transaction covers the whole filter chain.
     */
    public static final class DoFilter extends JavaxServletInstrumentation {

        private static final String ADVICE = "dev.apmagent.plugin.servlet.javax.JavaxServletInstrumentation$DoFilter$FilterDoFilterAdvice";

        DoFilter() {
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
                return ServletHelper.enter(adapters, type, null, request, response);
            }

            @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
            public static void exit(@Advice.Origin Class<?> type, @Advice.Enter Object scope, @Advice.Argument(0) Object request,
                                    @Advice.Argument(1) Object response, @Advice.Thrown Throwable thrown) {
                ServletHelper.exit(adapters, type, scope, request, response, thrown);
            }
        }
    }

    /**
     * {@code javax-servlet-async}: {@code AsyncContext.start(task)}, so that the spans of a task an asynchronous request
     * hands to the container belong to the request's transaction.
     */
    public static final class AsyncStart extends JavaxServletInstrumentation {

        private static final String ADVICE = "dev.apmagent.plugin.servlet.javax.JavaxServletInstrumentation$AsyncStart$AsyncContextStartAdvice";

        AsyncStart() {
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
}
