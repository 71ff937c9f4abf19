package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.ClassLoaderHasClass;
import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Collection;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * One JDBC instrumentation: every non-interface type implementing a {@code java.sql}/{@code javax.sql} interface,
 * whatever the driver or pool, after a name-only pre-filter; the methods and the advice (named by string) vary.
 *
 * <p>Class-loader marker: the JDBC API is visible from every loader, but the inlined advice calls {@link JdbcHelper},
 * so only loaders that can see it are instrumented. A loader that cannot (one whose parent is the platform loader, an
 * OSGi bundle without boot delegation of {@code dev.apmagent.*}) keeps its classes untouched instead of getting advice
 * that would fail with {@code NoClassDefFoundError} on every call.
 */
final class JdbcInstrumentation extends Instrumentation {

    static final String GROUP = "jdbc";

    /** Shared by every JDBC instrumentation, so each loader is asked once. */
    private static final ElementMatcher<ClassLoader> SEES_HELPER =
            ClassLoaderHasClass.hasClassNamed("dev.apmagent.plugin.jdbc.JdbcHelper");

    private final String name;
    private final ElementMatcher<? super TypeDescription> preFilter;
    private final ElementMatcher<? super TypeDescription> typeMatcher;
    private final List<AdviceBinding> advice;

    JdbcInstrumentation(String name, ElementMatcher<? super TypeDescription> preFilter, String apiInterface, AdviceBinding... advice) {
        this.name = name;
        this.preFilter = preFilter;
        this.typeMatcher = not(isInterface()).and(hasSuperType(named(apiInterface)));
        this.advice = Collections.unmodifiableList(Arrays.asList(advice));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Collection<String> groupNames() {
        return Collections.singletonList(GROUP);
    }

    @Override
    public ElementMatcher<ClassLoader> classLoaderMatcher() {
        return SEES_HELPER;
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return preFilter;
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return typeMatcher;
    }

    @Override
    public List<AdviceBinding> advice() {
        return advice;
    }
}
