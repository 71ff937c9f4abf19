package dev.apmagent.pool;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Tells virtual threads (JDK 21+) apart without compiling against Java 21: {@code Thread#isVirtual} is resolved once
 * into a {@code static final} {@link MethodHandle}, which the JIT inlines. On older JDKs every thread is a platform
 * thread.
 */
public final class VirtualThreads {

    private static final MethodHandle IS_VIRTUAL = resolveIsVirtual();

    private VirtualThreads() {
    }

    private static MethodHandle resolveIsVirtual() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException e) {
            return null;
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    /** Whether this JDK has virtual threads. */
    public static boolean isSupported() {
        return IS_VIRTUAL != null;
    }

    /** Whether {@code thread} is a virtual thread; false on JDKs without them. Never throws. */
    public static boolean isVirtual(Thread thread) {
        MethodHandle isVirtual = IS_VIRTUAL;
        if (isVirtual == null) {
            return false;
        }
        try {
            return (boolean) isVirtual.invokeExact(thread);
        } catch (Throwable e) {
            return false;
        }
    }

    /** Whether the calling thread is a virtual thread. */
    public static boolean isCurrentVirtual() {
        return isVirtual(Thread.currentThread());
    }
}
