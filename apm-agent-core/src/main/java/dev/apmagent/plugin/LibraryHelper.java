package dev.apmagent.plugin;

import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The way advice reaches a helper that needs the instrumented library's types. Advice (inlined into the
 * application's class) passes its own class: {@code HELPER.get(instrumentedClass)}; the first call for a class loader
 * defines the helper classes in a {@link HelperClassLoader} under that loader and instantiates the implementation,
 * later calls are a {@link ClassValue} lookup (a few nanoseconds, no lock, no allocation).
 *
 * <p>Memory: the helper is stored on each instrumented class (ClassValue), so it lives exactly as long as the
 * application's classes do; the per-loader map holds it only weakly and never keeps an undeployed application alive.
 *
 * @param <T> the helper's API, an interface of the agent whose methods take library objects as {@code Object}
 */
public final class LibraryHelper<T> extends ClassValue<T> {

    private static final Logger logger = AgentLog.get(LibraryHelper.class);

    private final Class<T> api;
    private final String implementationClassName;
    private final String[] helperPrefixes;
    private final Map<ClassLoader, WeakReference<T>> byLoader = new WeakHashMap<ClassLoader, WeakReference<T>>();
    private final Map<ClassLoader, Boolean> failed = new WeakHashMap<ClassLoader, Boolean>();

    /**
     * @param api                     the interface advice calls, loaded by the agent
     * @param implementationClassName the implementation, in a helper package
     * @param helperPrefixes          package prefixes of all classes to define next to the library (the implementation's and its helpers')
     */
    public LibraryHelper(Class<T> api, String implementationClassName, String... helperPrefixes) {
        this.api = api;
        this.implementationClassName = implementationClassName;
        this.helperPrefixes = helperPrefixes.clone();
    }

    /** The helper for the library as seen from {@code instrumentedClass}, or null when it cannot be created (logged once per loader). */
    @Override
    protected T computeValue(Class<?> instrumentedClass) {
        ClassLoader loader = instrumentedClass.getClassLoader();
        if (loader == null) {
            return null;
        }
        synchronized (byLoader) {
            if (failed.containsKey(loader)) {
                return null;
            }
            WeakReference<T> ref = byLoader.get(loader);
            T helper = ref == null ? null : ref.get();
            if (helper == null) {
                helper = create(loader);
                if (helper == null) {
                    failed.put(loader, Boolean.TRUE);
                } else {
                    byLoader.put(loader, new WeakReference<T>(helper));
                }
            }
            return helper;
        }
    }

    private T create(ClassLoader loader) {
        try {
            ClassLoader agentLoader = api.getClassLoader();
            HelperClassLoader helpers = new HelperClassLoader(loader, agentLoader, helperPrefixes);
            Class<?> implementation = helpers.loadClass(implementationClassName);
            return api.cast(implementation.getDeclaredConstructor().newInstance());
        } catch (Throwable t) {
            logger.warn("cannot create {} for class loader {}; its classes are not traced: {}", implementationClassName, loader, t);
            return null;
        }
    }
}
