package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.TypeResolutionStrategy;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;

import java.lang.instrument.ClassFileTransformer;
import java.security.AccessControlContext;
import java.security.AccessController;
import java.security.PrivilegedAction;
import java.security.ProtectionDomain;
import java.util.List;

/**
 * The agent's one class file hook: it decides by name whether a class could be instrumented
 * ({@link CandidateFilter}), describes a candidate from its class file, matches it against every instrumentation
 * ({@link CheapFirstMatcher}) and weaves the advice of all that match ({@link AdviceTransformer}) in one pass.
 *
 * <p>A class it transforms as it is loaded may also get a context field ({@link ContextFieldInjector}); a class it
 * retransforms never does, unless it got one when it was loaded (the field must then come back every time).
 *
 * <p>Why not ByteBuddy's {@code AgentBuilder}: the transformations are the same (a {@code decorate} of the class file,
 * advice inlined through {@code AsmVisitorWrapper.ForDeclaredMethods}, no class format changes, no type initializer,
 * nothing injected), but the {@code AgentBuilder} machinery around them cost a fifth of the agent's start-up on one
 * core (docs/benchmarks.md): initializing its transformer generates, with ByteBuddy's own class-generation DSL, a
 * subclass that accepts the Java 9 module argument (160 ms on two cores, 280 ms on one, measured by loading the class
 * in a JVM of its own), and {@code AgentBuilder.Default} loads another 100 classes. The module argument is never
 * needed: no matcher or transformation of the agent reads a module.
 *
 * <p>What ByteBuddy's hook did that this one does too: types are described from the class file only (a lazy type pool
 * over the bytes being loaded and the defining loader's resources, never by loading classes); a thread that loads a
 * class while it transforms another does not enter the hook again; the work runs with the permissions the agent had
 * at installation; whatever fails (a matcher, an unparsable class file, the advice) is counted and logged by
 * {@link TransformListener} and the class is loaded unchanged.
 */
final class AgentClassFileTransformer implements ClassFileTransformer {

    private final CandidateFilter candidates;
    private final CheapFirstMatcher[] matchers;
    private final AdviceTransformer[] transformers;
    private final ContextFieldInjector contextFields;
    private final TransformListener listener;
    /** False once uninstalling: the hook then only gives classes that have a context field their field again. */
    private volatile boolean advising = true;
    private final ByteBuddy byteBuddy = new ByteBuddy()
            .with(TypeValidation.DISABLED)
            .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
            .with(Implementation.Context.Disabled.Factory.INSTANCE); // no class format changes: retransformable
    /** Set while this thread transforms, so that classes it loads meanwhile are not transformed inside. */
    private final ThreadLocal<Boolean> transforming = new ThreadLocal<Boolean>();
    private final AccessControlContext installationContext = AccessController.getContext();

    AgentClassFileTransformer(List<Instrumentation> instrumentations, ClassLoader agentClassLoader,
                              TransformListener listener) {
        this.candidates = new CandidateFilter(instrumentations);
        this.listener = listener;
        this.matchers = new CheapFirstMatcher[instrumentations.size()];
        this.transformers = new AdviceTransformer[instrumentations.size()];
        AdviceTransformer.AdviceSource adviceSource = new AdviceTransformer.AdviceSource(agentClassLoader);
        for (int i = 0; i < matchers.length; i++) {
            matchers[i] = new CheapFirstMatcher(instrumentations.get(i), listener);
            transformers[i] = new AdviceTransformer(instrumentations.get(i), adviceSource);
        }
        this.contextFields = new ContextFieldInjector(instrumentations);
    }

    /**
     * From now on the hook adds no advice; classes that have a context field keep it (the JVM refuses a version
     * without it). For removal: retransforming the loaded classes then gives them back their original code.
     *
     * @return false when it had been called before
     */
    boolean stopAdvising() {
        boolean was = advising;
        advising = false;
        return was;
    }

    /**
     * Only the five-argument form is implemented (the agent compiles for Java 8); on Java 9+ the JVM calls the default
     * method that takes the module, which calls this one.
     */
    @Override
    public byte[] transform(final ClassLoader loader, final String internalName, final Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, final byte[] classFile) {
        // a retransformation starts from the class file without the field added at load: the field must come back
        final boolean keepField = classBeingRedefined != null && ContextFieldInjector.hasField(classBeingRedefined);
        if ((!keepField && !candidates.isCandidate(loader, internalName)) || transforming.get() != null) {
            return null;
        }
        // with the agent's own permissions (under a security manager, the code that triggered the class load may not
        // read class files through the loader), as ByteBuddy's hook did
        return AccessController.doPrivileged(new PrivilegedAction<byte[]>() {
            @Override
            public byte[] run() {
                return transformCandidate(loader, internalName, classBeingRedefined, classFile, keepField);
            }
        }, installationContext);
    }

    private byte[] transformCandidate(ClassLoader loader, String internalName, Class<?> classBeingRedefined,
                                      byte[] classFile, boolean keepField) {
        String typeName = internalName.replace('/', '.');
        try {
            transforming.set(Boolean.TRUE);
            ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(typeName, classFile),
                    ClassFileLocator.ForClassLoader.WeaklyReferenced.of(loader));
            TypePool pool = typePool(locator);
            TypeDescription type = pool.describe(typeName).resolve();
            DynamicType.Builder<?> builder = null;
            for (int i = 0; advising && i < matchers.length; i++) {
                if (matchers[i].matches(type, loader)) {
                    if (builder == null) {
                        builder = byteBuddy.decorate(type, locator);
                    }
                    builder = transformers[i].transform(builder);
                }
            }
            if (keepField || (builder != null && classBeingRedefined == null)) {
                String keyType = contextFields.keyTypeFor(type, loader);
                if (keyType != null || keepField) {
                    builder = ContextFieldInjector.addField(builder == null ? byteBuddy.decorate(type, locator) : builder,
                            keyType == null ? ContextFieldInjector.NO_KEY_TYPE : keyType);
                }
            }
            if (builder == null) {
                return null;
            }
            byte[] transformed = builder.make(TypeResolutionStrategy.Disabled.INSTANCE, pool).getBytes();
            listener.onTransformation(typeName, loader, classBeingRedefined != null);
            return transformed;
        } catch (Throwable t) {
            listener.onError(typeName, loader, classBeingRedefined != null, t);
            return null;
        } finally {
            transforming.remove();
        }
    }

    /**
     * Whether this hook would change an already loaded class; the class is described from its loader's class file,
     * as the hook would see it, never through reflection (which can load and link more classes).
     */
    boolean wouldTransform(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        String typeName = type.getName();
        if (!candidates.isCandidate(loader, typeName.replace('.', '/'))) {
            return false;
        }
        try {
            TypeDescription description = typePool(ClassFileLocator.ForClassLoader.WeaklyReferenced.of(loader))
                    .describe(typeName).resolve();
            for (CheapFirstMatcher matcher : matchers) {
                if (matcher.matches(description, loader)) {
                    return true;
                }
            }
            return false;
        } catch (Throwable t) {
            listener.onError(typeName, loader, true, t);
            return false;
        }
    }

    /** A pool for one transformation: its cache lives as long as the transformation, as with ByteBuddy's default. */
    private static TypePool typePool(ClassFileLocator locator) {
        return new TypePool.LazyFacade(new TypePool.Default.WithLazyResolution(
                TypePool.CacheProvider.Simple.withObjectType(), locator, TypePool.Default.ReaderMode.FAST));
    }
}
