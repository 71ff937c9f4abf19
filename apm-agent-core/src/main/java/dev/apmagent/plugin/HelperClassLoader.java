package dev.apmagent.plugin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Defines a plugin's helper classes in a class loader whose parent is the instrumented library's loader, so the
 * helpers link against the library's types as the application sees them (a servlet API inside a web application, a
 * Dubbo jar inside a Spring Boot fat jar).
 *
 * <ul>
 *   <li>Classes under one of the helper package prefixes are defined here, child-first, from the bytes in the agent
 *   jar.</li>
 *   <li>Other {@code dev.apmagent.} classes (the tracer, the helper's API interface) come from the agent's loader, so
 *   there is one tracer and the helper can be cast to its API type there.</li>
 *   <li>Everything else comes from the library's loader.</li>
 * </ul>
 */
final class HelperClassLoader extends ClassLoader {

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader agentLoader;
    private final String[] helperPrefixes;

    HelperClassLoader(ClassLoader libraryLoader, ClassLoader agentLoader, String[] helperPrefixes) {
        super(libraryLoader);
        this.agentLoader = agentLoader;
        this.helperPrefixes = helperPrefixes.clone();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                if (isHelper(name)) {
                    type = defineFromAgent(name);
                } else if (name.startsWith("dev.apmagent.")) {
                    type = agentLoader.loadClass(name);
                } else {
                    type = super.loadClass(name, false);
                }
            }
            if (resolve) {
                resolveClass(type);
            }
            return type;
        }
    }

    private boolean isHelper(String name) {
        for (String prefix : helperPrefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private Class<?> defineFromAgent(String name) throws ClassNotFoundException {
        String resource = name.replace('.', '/') + ".class";
        InputStream in = agentLoader.getResourceAsStream(resource);
        if (in == null) {
            throw new ClassNotFoundException(name + " is not in the agent jar");
        }
        try {
            byte[] bytes = readAll(in);
            return defineClass(name, bytes, 0, bytes.length, HelperClassLoader.class.getProtectionDomain());
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
            byte[] buffer = new byte[4096];
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } finally {
            in.close();
        }
    }

    @Override
    public String toString() {
        return "apm-agent helpers for " + getParent();
    }
}
