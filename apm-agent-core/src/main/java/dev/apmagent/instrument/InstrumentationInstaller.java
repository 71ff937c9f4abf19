package dev.apmagent.instrument;

import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.dynamic.loading.ClassInjector;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;

import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.any;
import java.util.concurrent.TimeUnit;

/**
 * Builds the one ByteBuddy {@link AgentBuilder} of the agent and installs it.
 *
 * <ul>
 *   <li>Retransformation without class-format changes, so the same set-up works at start-up and when attached to a
 *   running JVM (retransformation may not add fields or methods).</li>
 *   <li>When attached to a running JVM, already loaded classes are retransformed in batches of
 *   {@value #ATTACH_BATCH_SIZE} with a pause of {@value #ATTACH_BATCH_PAUSE_MILLIS} ms between batches, so the
 *   application never sees one long safepoint.</li>
 *   <li>A class reaches ByteBuddy only when its name could match ({@link CandidateFilter}); type descriptions come
 *   from the class file pool only (never by loading classes), lazily resolved, so the candidates too are rejected by
 *   name where they can be, without being parsed.</li>
 *   <li>Every instrumentation is its own transformation and none is terminal: a class matched by several (a servlet
 *   that is also a filter) gets all of their advice.</li>
 *   <li>Advice is inlined. It is read from the agent's class loader, once per advice binding
 *   ({@link AdviceTransformer}), and copied into the target method; what it references must be visible from the target's class loader
 *   (docs/architecture.md, "Class loading").</li>
 *   <li>Methods are looked up among the matched type's own declarations only (no method graph over its hierarchy):
 *   advice goes on declared methods, and compiling the graph parsed every supertype of every transformed class.</li>
 * </ul>
 */
public final class InstrumentationInstaller {

    static final int ATTACH_BATCH_SIZE = 100;
    static final long ATTACH_BATCH_PAUSE_MILLIS = 50;

    private static final Logger logger = AgentLog.get(InstrumentationInstaller.class);

    private InstrumentationInstaller() {
    }

    /**
     * Installs the given instrumentations.
     *
     * @param runtimeAttach true when the agent was attached to a running JVM: loaded classes are retransformed in paced batches
     * @return the installed transformer with its statistics
     */
    public static Installed install(java.lang.instrument.Instrumentation jvm, List<Instrumentation> instrumentations,
                                    ClassLoader agentClassLoader, boolean runtimeAttach) {
        TransformListener listener = new TransformListener();
        AgentBuilder builder = newAgentBuilder(listener, runtimeAttach).with(new CandidateFilter(instrumentations));
        AdviceTransformer.AdviceSource adviceSource = new AdviceTransformer.AdviceSource(agentClassLoader);
        for (Instrumentation instrumentation : instrumentations) {
            builder = builder.type(new CheapFirstMatcher(instrumentation, listener))
                    .transform(new AdviceTransformer(instrumentation, adviceSource));
        }
        long start = System.nanoTime();
        ResettableClassFileTransformer transformer = builder.installOn(jvm);
        logger.debug("installed {} instrumentations in {} ms", instrumentations.size(), (System.nanoTime() - start) / 1_000_000);
        return new Installed(transformer, listener);
    }

    /**
     * {@code new AgentBuilder.Default()} initializes ByteBuddy's class injectors, which probe {@code sun.misc.Unsafe}; on
     * JDK 24+ that makes the JVM print a four-line "terminally deprecated method in sun.misc.Unsafe" warning on the
     * application's stderr (JEP 498). The agent injects no class (inlined advice, no class format changes, its own
     * helper class loaders), so its ByteBuddy is told not to use Unsafe while the injectors initialize (they read the
     * flag once). The property is ByteBuddy's own, relocated with it by the shading, so it never affects the
     * application's ByteBuddy, and it is removed again unless someone had set it before. MisbehavingCodeIT compares
     * stderr with and without the agent on JDK 25.
     */
    private static AgentBuilder.Default newDefaultAgentBuilder() {
        String safe = ClassInjector.UsingUnsafe.SAFE_PROPERTY;
        boolean setHere = System.getProperty(safe) == null;
        if (setHere) {
            System.setProperty(safe, "true");
        }
        try {
            return new AgentBuilder.Default(new ByteBuddy()
                    .with(TypeValidation.DISABLED)
                    .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE));
        } finally {
            if (setHere) {
                System.clearProperty(safe);
            }
        }
    }

    static AgentBuilder newAgentBuilder(TransformListener listener, boolean runtimeAttach) {
        AgentBuilder.RedefinitionStrategy.Listener pacing = runtimeAttach
                ? AgentBuilder.RedefinitionStrategy.Listener.Pausing.of(ATTACH_BATCH_PAUSE_MILLIS, TimeUnit.MILLISECONDS)
                : AgentBuilder.RedefinitionStrategy.Listener.NoOp.INSTANCE;
        return newDefaultAgentBuilder()
                .disableClassFormatChanges()
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE) // inlined advice needs no type initializer
                .with(AgentBuilder.InjectionStrategy.Disabled.INSTANCE)  // and no helper classes injected by ByteBuddy
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.RedefinitionStrategy.BatchAllocator.ForFixedSize.ofSize(ATTACH_BATCH_SIZE))
                .with(pacing)
                .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
                .with(AgentBuilder.PoolStrategy.Default.FAST)
                .with(AgentBuilder.LocationStrategy.ForClassLoader.WEAK)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(listener)
                .ignore(any(), IgnoreRules.ignoredClassLoaders())
                .or(IgnoreRules.ignoredTypes());
    }

    /** What {@link #install} installed, for the start-up log, tests and removal. */
    public static final class Installed {
        private final ResettableClassFileTransformer transformer;
        private final TransformListener listener;

        Installed(ResettableClassFileTransformer transformer, TransformListener listener) {
            this.transformer = transformer;
            this.listener = listener;
        }

        public long transformedTypes() {
            return listener.transformedCount();
        }

        public long errors() {
            return listener.errorCount();
        }

        /** Removes the transformer and restores the original classes (used by tests). */
        public boolean uninstall(java.lang.instrument.Instrumentation jvm) {
            return transformer.reset(jvm, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
        }
    }
}
