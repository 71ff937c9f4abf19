package dev.apmagent.plugin;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * One instrumentation: which types, which methods, which advice. Matching runs cheapest first:
 * {@link #typeNamePreFilter()} (names only, no bytecode parsed), then the class-loader marker, and only then
 * {@link #typeMatcher()} (which may walk the type hierarchy).
 *
 * <p>Advice is named by string so the advice class is never loaded into the agent's class loader by accident; it
 * is a trampoline of a few lines that calls a helper, with {@code suppress = Throwable.class} on enter and exit.
 */
public abstract class Instrumentation {

    /**
     * The group of instrumentations that are off unless {@code enable_experimental_instrumentations=true} (the Elastic
     * agent's rule): ones whose cost or behaviour a user should choose.
     */
    public static final String EXPERIMENTAL = "experimental";

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

    /**
     * A cheap filter evaluated before {@link #typeMatcher()}, on the type's name only: it is first asked about every
     * class the JVM loads with a description that carries nothing but the name (no modifiers, no supertypes), so a
     * matcher on anything else (say {@code isPublic()}) would reject every class.
     */
    public abstract ElementMatcher<? super TypeDescription> typeNamePreFilter();

    /** The full type matcher; may walk the hierarchy. */
    public abstract ElementMatcher<? super TypeDescription> typeMatcher();

    /**
     * The methods to advise and, for each matcher, the advice applied to them. A type that is advised in several ways
     * (a JDBC statement's execute, update and batch methods) is one instrumentation with several bindings, so it is
     * matched once.
     */
    public abstract List<AdviceBinding> advice();

    /**
     * For an instrumentation of JDK classes (defined by the bootstrap or platform loader, which cannot see the agent):
     * the {@link dev.apmagent.bridge.BridgeHandler}s its advice reaches through {@link dev.apmagent.bridge.Bridge},
     * named by string (public, with a public no-argument constructor). They are created and registered when the
     * instrumentation is installed, after the bridge was made visible to the bootstrap loader: loading a handler class
     * earlier would load the bridge from the agent's loader instead. The name pre-filter of such an instrumentation is
     * asked about {@code java.}, {@code jdk.} and {@code sun.} classes, which the ignore rules keep from every other
     * one. Empty (the default) for library classes.
     */
    public List<String> bridgeHandlers() {
        return Collections.emptyList();
    }

    /**
     * The library types (class or interface names) whose objects this instrumentation's helpers keep state for in a
     * {@link ContextStore#forType(String, int, int) ContextStore bound to the type}: a class of such a type that the
     * class file hook transforms as it is loaded (some instrumentation matched it) gets a context field for that store;
     * one it retransforms after an attach does not, and the store keeps its objects in its weak map. Empty (the
     * default) for none. Rules, in docs/plugins.md: interfaces never get a field; nor does a class that is a subtype of
     * two declared key types, or whose superclass is a subtype of one (the superclass has the field, or the map serves).
     */
    public List<String> contextKeyTypes() {
        return Collections.emptyList();
    }

    /** Methods and the class that holds their {@code @Advice.OnMethodEnter/Exit} methods, named by string. */
    public static final class AdviceBinding {
        private final ElementMatcher<? super MethodDescription> methods;
        private final String adviceClassName;

        public AdviceBinding(ElementMatcher<? super MethodDescription> methods, String adviceClassName) {
            this.methods = methods;
            this.adviceClassName = adviceClassName;
        }

        /** The usual case: one binding. */
        public static List<AdviceBinding> single(ElementMatcher<? super MethodDescription> methods, String adviceClassName) {
            return Collections.singletonList(new AdviceBinding(methods, adviceClassName));
        }

        public ElementMatcher<? super MethodDescription> methods() {
            return methods;
        }

        public String adviceClassName() {
            return adviceClassName;
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
