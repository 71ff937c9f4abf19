package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The first question the class file hook ({@link AgentClassFileTransformer}) asks of every class: could some
 * instrumentation match it? Yes when it is loaded by a class loader the agent instruments, not ignored by name
 * ({@link IgnoreRules}), and accepted by an instrumentation's name pre-filter. Only then is the class file parsed.
 *
 * <p>Why: every class the JVM loads goes through the hook, 4,400 of them before the reference application's first
 * request. Describing each (a class file locator, a type pool, a lazy type description) and running the matchers on
 * it was enough work that the JIT compiled that code twice (C1, then C2) while the application started, and on one
 * core the compiler threads take turns with {@code main}. Here a rejected class costs one string and a few name
 * comparisons.
 */
final class CandidateFilter {

    private final ElementMatcher<? super ClassLoader> ignoredLoaders = IgnoreRules.ignoredClassLoaders();
    private final ElementMatcher<? super TypeDescription> ignoredTypes = IgnoreRules.ignoredTypes();
    private final ElementMatcher<? super TypeDescription>[] preFilters;
    /** Pre-filters of the instrumentations of JDK classes (through the bootstrap bridge); the only ones asked about them. */
    private final ElementMatcher<? super TypeDescription>[] jdkPreFilters;

    CandidateFilter(List<Instrumentation> instrumentations) {
        List<ElementMatcher<? super TypeDescription>> library = new ArrayList<ElementMatcher<? super TypeDescription>>();
        List<ElementMatcher<? super TypeDescription>> jdk = new ArrayList<ElementMatcher<? super TypeDescription>>();
        for (Instrumentation instrumentation : instrumentations) {
            (BootstrapBridge.needsBridge(instrumentation) ? jdk : library).add(instrumentation.typeNamePreFilter());
        }
        preFilters = toArray(library);
        jdkPreFilters = toArray(jdk);
        // Loads, here at installation, every class a decision needs. The filter runs outside the hook's guard against
        // re-entering it: a class loaded by its first decision would come back through it.
        isCandidate(CandidateFilter.class.getClassLoader(), "org/example/Warm");
    }

    /**
     * Whether the class could be instrumented. A class without a name (a hidden class) is never instrumented; a filter
     * that throws lets the class through, to be matched (and the failure handled) by the matchers.
     */
    boolean isCandidate(ClassLoader loader, String internalName) {
        if (internalName == null) {
            return false;
        }
        try {
            if (isJdkName(internalName)) {
                return jdkPreFilters.length > 0 && anyMatches(jdkPreFilters, named(internalName));
            }
            if (ignoredLoaders.matches(loader)) {
                return false;
            }
            TypeDescription named = named(internalName);
            return !ignoredTypes.matches(named) && anyMatches(preFilters, named);
        } catch (Throwable t) {
            return true;
        }
    }

    /** The JDK's own packages: only the bootstrap and platform loaders define them, and the ignore rules skip them. */
    private static boolean isJdkName(String internalName) {
        return internalName.startsWith("java/") || internalName.startsWith("jdk/") || internalName.startsWith("sun/");
    }

    private static TypeDescription named(String internalName) {
        return new TypeDescription.Latent(internalName.replace('/', '.'), 0, null, Collections.<TypeDescription.Generic>emptyList());
    }

    private static boolean anyMatches(ElementMatcher<? super TypeDescription>[] filters, TypeDescription named) {
        for (ElementMatcher<? super TypeDescription> filter : filters) {
            if (filter.matches(named)) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static ElementMatcher<? super TypeDescription>[] toArray(List<ElementMatcher<? super TypeDescription>> filters) {
        return filters.toArray(new ElementMatcher[0]);
    }
}
