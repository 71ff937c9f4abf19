package dev.apmagent.testing;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * Loads the classes of one package prefix itself, from its URLs, and everything else from its parent, as a web
 * application's loader does. Tests use it to load a library anew, so that whether its classes were loaded before or
 * after an instrumentation was installed (context fields or the stores' maps) does not depend on what ran before in
 * the test's JVM.
 */
public final class ChildFirstLoader extends URLClassLoader {

    private final String prefix;

    public ChildFirstLoader(URL location, ClassLoader parent, String prefix) {
        super(new URL[] {location}, parent);
        this.prefix = prefix;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(prefix)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = findClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
