package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.List;

/**
 * Stands in front of ByteBuddy's class file transformer and hands it only the classes that some instrumentation could
 * match: loaded by a class loader the agent instruments, not ignored by name ({@link IgnoreRules}), and accepted by an
 * instrumentation's name pre-filter. Everything it passes on, ByteBuddy matches exactly as before; what it rejects,
 * ByteBuddy would have rejected on the same names.
 *
 * <p>Why: every class the JVM loads goes through the transformer, 4,400 of them before the reference application's
 * first request. For each, ByteBuddy builds a class file locator, a type pool and a lazy type description, finds the
 * class's module through a reflective proxy and runs its ignore matchers; enough calls that the JIT compiles that code
 * twice (C1, then C2) while the application starts, and on one core the compiler threads take turns with {@code main}.
 * Here a rejected class costs one string and a few name comparisons.
 */
final class CandidateFilter implements AgentBuilder.TransformerDecorator {

    private final ElementMatcher<? super ClassLoader> ignoredLoaders = IgnoreRules.ignoredClassLoaders();
    private final ElementMatcher<? super TypeDescription> ignoredTypes = IgnoreRules.ignoredTypes();
    private final ElementMatcher<? super TypeDescription>[] preFilters;

    @SuppressWarnings("unchecked")
    CandidateFilter(List<Instrumentation> instrumentations) {
        preFilters = new ElementMatcher[instrumentations.size()];
        for (int i = 0; i < preFilters.length; i++) {
            preFilters[i] = instrumentations.get(i).typeNamePreFilter();
        }
        // Loads, here at installation, every class a decision needs. Once registered, the filter runs outside
        // ByteBuddy's guard against re-entering the transformer: a class loaded by its first decision would come
        // back through it.
        isCandidate(CandidateFilter.class.getClassLoader(), "org/example/Warm");
    }

    @Override
    public ResettableClassFileTransformer decorate(ResettableClassFileTransformer byteBuddy) {
        return new Filtering(byteBuddy, this);
    }

    /**
     * Whether ByteBuddy should see the class. A class without a name (a hidden class) is never instrumented; a filter
     * that throws lets the class through, to be matched (and the failure handled) by ByteBuddy.
     */
    boolean isCandidate(ClassLoader loader, String internalName) {
        if (internalName == null) {
            return false;
        }
        try {
            if (ignoredLoaders.matches(loader)) {
                return false;
            }
            TypeDescription named = new TypeDescription.Latent(internalName.replace('/', '.'), 0, null,
                    Collections.<TypeDescription.Generic>emptyList());
            if (ignoredTypes.matches(named)) {
                return false;
            }
            for (ElementMatcher<? super TypeDescription> preFilter : preFilters) {
                if (preFilter.matches(named)) {
                    return true;
                }
            }
            return false;
        } catch (Throwable t) {
            return true;
        }
    }

    /**
     * ByteBuddy's transformer behind the filter; removal and retransformation are ByteBuddy's own. Only the
     * five-argument {@code transform} is implemented (the agent compiles for Java 8): on Java 9+ the JVM's default
     * method with the module calls it, and ByteBuddy then finds no module, which none of the agent's matchers or
     * transformations read.
     */
    static final class Filtering extends ResettableClassFileTransformer.WithDelegation {
        private final CandidateFilter filter;

        Filtering(ResettableClassFileTransformer byteBuddy, CandidateFilter filter) {
            super(byteBuddy);
            this.filter = filter;
        }

        @Override
        public byte[] transform(ClassLoader loader, String internalName, Class<?> classBeingRedefined,
                                ProtectionDomain protectionDomain, byte[] classFile)
                throws IllegalClassFormatException {
            if (!filter.isCandidate(loader, internalName)) {
                return null;
            }
            return classFileTransformer.transform(loader, internalName, classBeingRedefined, protectionDomain,
                    classFile);
        }
    }
}
