package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

import java.util.List;

/**
 * Applies one instrumentation's advice to a matched type, each binding's advice class read once for the life of the
 * agent.
 *
 * <p>ByteBuddy's {@code AgentBuilder.Transformer.ForAdvice} (which the agent used before it had its own class file
 * hook) finds the advice class by name and builds its
 * {@link Advice} again for every type it transforms: a class file read from the agent's jar, a type pool, the advice
 * methods' annotations parsed. That was a fifth of the class file hook's samples at start-up (a JDBC statement type
 * has seven advice classes). Here each binding resolves its {@link Advice} on first use and keeps it: an
 * {@code Advice} is immutable, and the advice classes' method signatures name only JDK types, so one resolution
 * against the agent's class loader serves every target class loader.
 *
 * <p>Two threads loading the first two matching types at the same time may both resolve a binding; either result is
 * the same advice, and the last write wins.
 */
final class AdviceTransformer {

    private final Binding[] bindings;

    AdviceTransformer(Instrumentation instrumentation, AdviceSource source) {
        List<Instrumentation.AdviceBinding> advice = instrumentation.advice();
        this.bindings = new Binding[advice.size()];
        for (int i = 0; i < bindings.length; i++) {
            bindings[i] = new Binding(advice.get(i), source);
        }
    }

    /** Adds this instrumentation's advice, on the methods each binding matches among the type's declared ones. */
    DynamicType.Builder<?> transform(DynamicType.Builder<?> builder) {
        AsmVisitorWrapper.ForDeclaredMethods wrapper = new AsmVisitorWrapper.ForDeclaredMethods();
        for (Binding binding : bindings) {
            wrapper = wrapper.invokable(binding.methods, binding.advice());
        }
        return builder.visit(wrapper);
    }

    /**
     * Where advice classes are read from: the agent's class loader, through one type pool shared by all bindings (its
     * cache is a concurrent map).
     */
    static final class AdviceSource {
        private final ClassFileLocator locator;
        private final TypePool pool;

        AdviceSource(ClassLoader agentClassLoader) {
            this.locator = ClassFileLocator.ForClassLoader.of(agentClassLoader);
            this.pool = TypePool.Default.of(locator);
        }

        Advice resolve(String adviceClassName) {
            return Advice.to(pool.describe(adviceClassName).resolve(), locator)
                    .withExceptionHandler(Advice.ExceptionHandler.Default.SUPPRESSING);
        }
    }

    private static final class Binding {
        final ElementMatcher<? super MethodDescription> methods;
        private final String adviceClassName;
        private final AdviceSource source;
        private volatile Advice advice;

        Binding(Instrumentation.AdviceBinding binding, AdviceSource source) {
            this.methods = binding.methods();
            this.adviceClassName = binding.adviceClassName();
            this.source = source;
        }

        Advice advice() {
            Advice resolved = advice;
            if (resolved == null) {
                resolved = source.resolve(adviceClassName);
                advice = resolved;
            }
            return resolved;
        }
    }
}
