package dev.apmagent.instrument.injector;

import java.lang.reflect.Method;
import java.security.ProtectionDomain;

/**
 * Defines the bootstrap bridge's classes in the bootstrap class loader, on Java 9 and later. This class is never used
 * from the agent's class path: {@code BootstrapBridge} loads it into a module layer of its own, as the only class of
 * the named module {@code dev.apmagent.injector}, and exports {@code java.base}'s {@code jdk.internal.misc} to that
 * module alone, so that the application gains no access to the JDK's internals. Uses only JDK types.
 */
public final class BootstrapInjector {

    private BootstrapInjector() {
    }

    /** Defines each class in the bootstrap loader, in the order given. */
    public static void define(String[] names, byte[][] classFiles) throws Exception {
        Class<?> unsafeType = Class.forName("jdk.internal.misc.Unsafe");
        Object unsafe = unsafeType.getMethod("getUnsafe").invoke(null);
        Method defineClass = unsafeType.getMethod("defineClass", String.class, byte[].class, int.class, int.class, ClassLoader.class,
                ProtectionDomain.class);
        for (int i = 0; i < names.length; i++) {
            defineClass.invoke(unsafe, names[i], classFiles[i], 0, classFiles[i].length, null, null);
        }
    }
}
