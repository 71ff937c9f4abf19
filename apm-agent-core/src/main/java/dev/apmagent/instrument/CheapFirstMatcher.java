package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Evaluates one instrumentation's matchers cheapest first: the name-only pre-filter (a few string comparisons), then
 * the class-loader marker (a resource lookup, cached per loader), and only then what needs the class file parsed:
 * generated (synthetic) classes are never instrumented, and the full type matcher may walk the hierarchy. The
 * matchers are built once, so the loader cache lives as long as the agent. A matcher that throws is treated as
 * "no match": matching must never break the application's class loading.
 */
final class CheapFirstMatcher {

    private final Instrumentation instrumentation;
    private final ElementMatcher<? super TypeDescription> namePreFilter;
    private final ElementMatcher<? super ClassLoader> loaderMatcher;
    private final ElementMatcher<? super TypeDescription> typeMatcher;
    private final TransformListener listener;

    CheapFirstMatcher(Instrumentation instrumentation, TransformListener listener) {
        this.instrumentation = instrumentation;
        this.namePreFilter = instrumentation.typeNamePreFilter();
        this.loaderMatcher = instrumentation.classLoaderMatcher();
        this.typeMatcher = instrumentation.typeMatcher();
        this.listener = listener;
    }

    boolean matches(TypeDescription type, ClassLoader loader) {
        try {
            return namePreFilter.matches(type) && loaderMatcher.matches(loader) && !type.isSynthetic()
                    && typeMatcher.matches(type);
        } catch (Throwable t) {
            listener.onMatcherError(instrumentation, type.getName(), t);
            return false;
        }
    }
}
