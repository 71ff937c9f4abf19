package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.utility.JavaModule;

import java.security.ProtectionDomain;

/**
 * Evaluates one instrumentation's matchers cheapest first: the class-loader marker (cached per loader), then the
 * name-only pre-filter, and only then the full type matcher, which may parse bytecode and walk the hierarchy.
 * A matcher that throws is treated as "no match": matching must never break the application's class loading.
 */
final class CheapFirstMatcher implements AgentBuilder.RawMatcher {

    private final Instrumentation instrumentation;
    private final TransformListener listener;

    CheapFirstMatcher(Instrumentation instrumentation, TransformListener listener) {
        this.instrumentation = instrumentation;
        this.listener = listener;
    }

    @Override
    public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module, Class<?> classBeingRedefined,
                           ProtectionDomain protectionDomain) {
        try {
            return instrumentation.classLoaderMatcher().matches(loader)
                    && instrumentation.typeNamePreFilter().matches(type)
                    && instrumentation.typeMatcher().matches(type);
        } catch (Throwable t) {
            listener.onMatcherError(instrumentation, type.getName(), t);
            return false;
        }
    }
}
