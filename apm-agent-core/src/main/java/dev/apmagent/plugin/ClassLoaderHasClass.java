package dev.apmagent.plugin;

import net.bytebuddy.matcher.ElementMatcher;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Matches class loaders that can see a marker class, looked up as a resource so that nothing is loaded or
 * initialised. Results are cached per class loader (weakly, so an undeployed application's loader can be
 * collected). This runs at class-load time only, never on an application's request path.
 */
public final class ClassLoaderHasClass extends ElementMatcher.Junction.AbstractBase<ClassLoader> {

    private final String resourceName;
    private final Map<ClassLoader, Boolean> cache = Collections.synchronizedMap(new WeakHashMap<ClassLoader, Boolean>());

    private ClassLoaderHasClass(String className) {
        this.resourceName = className.replace('.', '/') + ".class";
    }

    public static ElementMatcher.Junction<ClassLoader> hasClassNamed(String className) {
        return new ClassLoaderHasClass(className);
    }

    @Override
    public boolean matches(ClassLoader loader) {
        if (loader == null) {
            return false; // the bootstrap loader's classes are never instrumented (see IgnoreRules)
        }
        Boolean cached = cache.get(loader);
        if (cached != null) {
            return cached;
        }
        boolean found;
        try {
            found = loader.getResource(resourceName) != null;
        } catch (Throwable t) {
            found = false;
        }
        cache.put(loader, found);
        return found;
    }

    @Override
    public String toString() {
        return "hasClassNamed(" + resourceName + ")";
    }
}
