package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.ClassLoaderHasClass;
import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * What the JDBC instrumentations share: every non-interface type implementing one {@code java.sql}/{@code javax.sql}
 * interface, whatever the driver or pool, after a name-only pre-filter; group {@code jdbc} (plus the group names that
 * kept their meaning when an instrumentation was split); public concrete methods only; advice named by string as a
 * nested class of the instrumentation, so the agent's loader never loads it.
 *
 * <p>Class-loader marker: the JDBC API is visible from every loader, but the inlined advice calls this plugin's
 * helpers, so only loaders that can see them are instrumented. A loader that cannot (one whose parent is the platform
 * loader, an OSGi bundle without boot delegation of {@code dev.apmagent.*}) keeps its classes untouched instead of
 * getting advice that would fail with {@code NoClassDefFoundError} on every call.
 */
abstract class JdbcInstrumentation extends Instrumentation {

    /** Shared by every JDBC instrumentation, so each loader is asked once. */
    private static final ElementMatcher<ClassLoader> SEES_HELPERS =
            ClassLoaderHasClass.hasClassNamed("dev.apmagent.plugin.jdbc.JdbcCalls");

    private final String name;
    private final List<String> groupNames;
    private final ElementMatcher<? super TypeDescription> preFilter;
    private final ElementMatcher<? super TypeDescription> typeMatcher;

    /**
     * @param name         the instrumentation's name, {@code jdbc-} and its class name in kebab case
     * @param apiInterface the JDBC interface the instrumented types implement
     * @param preFilter    on the type's name only (see {@link Instrumentation#typeNamePreFilter()})
     * @param groupNames   group names besides {@code jdbc}
     */
    JdbcInstrumentation(String name, String apiInterface, ElementMatcher<? super TypeDescription> preFilter,
                        String... groupNames) {
        this.name = name;
        this.preFilter = preFilter;
        List<String> groups = new ArrayList<String>();
        groups.add(JdbcPlugin.NAME);
        groups.addAll(Arrays.asList(groupNames));
        this.groupNames = Collections.unmodifiableList(groups);
        this.typeMatcher = not(isInterface()).and(hasSuperType(named(apiInterface)));
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Collection<String> groupNames() {
        return groupNames;
    }

    @Override
    public final ElementMatcher<ClassLoader> classLoaderMatcher() {
        return SEES_HELPERS;
    }

    @Override
    public final ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return preFilter;
    }

    @Override
    public final ElementMatcher<? super TypeDescription> typeMatcher() {
        return typeMatcher;
    }

    /** Public, concrete, not a bridge: the methods an application calls. */
    static ElementMatcher.Junction<MethodDescription> concrete() {
        return isPublic().and(not(isAbstract())).and(not(isBridge()));
    }

    static List<AdviceBinding> bindings(AdviceBinding... bindings) {
        return Collections.unmodifiableList(Arrays.asList(bindings));
    }

    /** The advice class {@code simpleName} nested in this instrumentation's class, by name. */
    final AdviceBinding advice(ElementMatcher<? super MethodDescription> methods, String simpleName) {
        return new AdviceBinding(methods, getClass().getName() + "$" + simpleName);
    }
}
