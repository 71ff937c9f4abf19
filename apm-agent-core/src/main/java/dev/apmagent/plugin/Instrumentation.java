package dev.apmagent.plugin;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

import java.util.Collection;
import java.util.Collections;

/**
 * One instrumentation: which types, which methods, which advice. Matching runs cheapest first: the class-loader
 * marker, then {@link #typeNamePreFilter()} (names only, no bytecode parsed), and only then {@link #typeMatcher()}
 * (which may walk the type hierarchy).
 *
 * <p>Advice is named by string so the advice class is never loaded into the agent's class loader by accident; it
 * is a trampoline of a few lines that calls a helper, with {@code suppress = Throwable.class} on enter and exit.
 */
public abstract class Instrumentation {

    /** Kebab-case name, the one users put in {@code disable_instrumentations}. */
    public abstract String name();

    /** Group names this instrumentation also answers to in {@code disable_instrumentations}, such as {@code jdbc}. */
    public Collection<String> groupNames() {
        return Collections.emptyList();
    }

    /** Rejects class loaders that cannot see the instrumented library, typically by a marker class. */
    public ElementMatcher<ClassLoader> classLoaderMatcher() {
        return ElementMatchers.any();
    }

    /** A cheap, name-only filter evaluated before {@link #typeMatcher()}. */
    public abstract ElementMatcher<? super TypeDescription> typeNamePreFilter();

    /** The full type matcher; may walk the hierarchy. */
    public abstract ElementMatcher<? super TypeDescription> typeMatcher();

    public abstract ElementMatcher<? super MethodDescription> methodMatcher();

    /** Fully qualified name of the class that holds the {@code @Advice.OnMethodEnter/Exit} methods. */
    public abstract String adviceClassName();

    @Override
    public String toString() {
        return name();
    }
}
