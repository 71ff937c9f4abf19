package dev.apmagent.instrument;

import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.plugin.Instrumentation;

import java.util.ArrayList;
import java.util.List;

/**
 * Installs the agent's class file hook ({@link AgentClassFileTransformer}) and applies it to the classes already
 * loaded.
 *
 * <ul>
 *   <li>Retransformation without class-format changes, so the same set-up works at start-up and when attached to a
 *   running JVM (retransformation may not add fields or methods). Only classes transformed as they are loaded may get
 *   a context field ({@link ContextFieldInjector}).</li>
 *   <li>Classes loaded before installation (a few at start-up, all of the application's when attached) are found by
 *   the same decision the hook makes, on their class files, and retransformed in batches of
 *   {@value #ATTACH_BATCH_SIZE}; when attached to a running JVM, with a pause of {@value #ATTACH_BATCH_PAUSE_MILLIS} ms
 *   between batches, so the application never sees one long safepoint. A batch the JVM refuses is retried class by
 *   class, so one class that cannot be changed does not leave the others alone.</li>
 *   <li>A class reaches the type matchers only when its name could match ({@link CandidateFilter}); type descriptions
 *   come from the class file (never by loading classes), lazily resolved, so the candidates too are rejected by name
 *   where they can be, without being parsed.</li>
 *   <li>Every instrumentation that matches a class adds its advice: a class matched by several (a servlet that is
 *   also a filter) gets all of their advice.</li>
 *   <li>Advice is inlined. It is read from the agent's class loader, once per advice binding
 *   ({@link AdviceTransformer}), and copied into the target method; what it references must be visible from the
 *   target's class loader (docs/architecture.md, "Class loading").</li>
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
        long start = System.nanoTime();
        TransformListener listener = new TransformListener();
        instrumentations = new ArrayList<Instrumentation>(instrumentations);
        BootstrapBridge bridge = BootstrapBridge.install(jvm, instrumentations, agentClassLoader);
        AgentClassFileTransformer transformer = new AgentClassFileTransformer(instrumentations, agentClassLoader, listener);
        boolean canRetransform = jvm.isRetransformClassesSupported();
        jvm.addTransformer(transformer, canRetransform);
        if (!canRetransform) {
            logger.warn("this JVM cannot retransform classes: classes loaded before the agent started are not instrumented");
        }
        int retransformed = retransformLoaded(jvm, transformer, listener, runtimeAttach ? ATTACH_BATCH_PAUSE_MILLIS : 0);
        logger.debug("installed {} instrumentations in {} ms; {} loaded classes retransformed", instrumentations.size(),
                (System.nanoTime() - start) / 1_000_000, retransformed);
        return new Installed(transformer, listener, bridge);
    }

    /**
     * Retransforms every loaded class the hook would change: the hook then instruments it, or, once removed, the class
     * gets its original code back.
     *
     * @return how many classes were found
     */
    static int retransformLoaded(java.lang.instrument.Instrumentation jvm, AgentClassFileTransformer transformer,
                                 TransformListener listener, long pauseMillis) {
        if (!jvm.isRetransformClassesSupported()) {
            return 0;
        }
        List<Class<?>> found = new ArrayList<Class<?>>();
        for (Class<?> type : jvm.getAllLoadedClasses()) {
            if (jvm.isModifiableClass(type) && transformer.wouldTransform(type)) {
                found.add(type);
            }
        }
        for (int from = 0; from < found.size(); from += ATTACH_BATCH_SIZE) {
            if (from > 0 && pauseMillis > 0 && !pause(pauseMillis)) {
                pauseMillis = 0; // interrupted: finish without pausing, and the interrupt stays set for the caller
            }
            List<Class<?>> batch = found.subList(from, Math.min(found.size(), from + ATTACH_BATCH_SIZE));
            try {
                jvm.retransformClasses(batch.toArray(new Class<?>[0]));
            } catch (Throwable batchFailed) {
                for (Class<?> type : batch) {
                    try {
                        jvm.retransformClasses(type);
                    } catch (Throwable t) {
                        listener.onError(type.getName(), type.getClassLoader(), true, t);
                    }
                }
            }
        }
        return found.size();
    }

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** What {@link #install} installed, for the start-up log, tests and removal. */
    public static final class Installed {
        private final AgentClassFileTransformer transformer;
        private final TransformListener listener;
        private final BootstrapBridge bridge;

        Installed(AgentClassFileTransformer transformer, TransformListener listener, BootstrapBridge bridge) {
            this.transformer = transformer;
            this.listener = listener;
            this.bridge = bridge;
        }

        public long transformedTypes() {
            return listener.transformedCount();
        }

        public long errors() {
            return listener.errorCount();
        }

        /**
         * Restores the original code of the classes and removes the transformer (used by tests). Classes that got a
         * context field as they were loaded keep it (the JVM cannot remove a field), and the rest of their original
         * code: the hook retransforms them before it is removed. A later retransformation of such a class succeeds
         * only while some installation of the agent is there to add the field again.
         */
        public boolean uninstall(java.lang.instrument.Instrumentation jvm) {
            if (!transformer.stopAdvising()) {
                return false;
            }
            if (bridge != null) {
                bridge.unregister();
            }
            retransformLoaded(jvm, transformer, listener, 0);
            return jvm.removeTransformer(transformer);
        }
    }
}
