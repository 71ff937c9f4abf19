package dev.apmagent.plugin.dubbo;

import java.util.concurrent.atomic.AtomicLong;

/** Counts what went wrong inside the plugin; never logged per call (see the agent's health metrics). */
public final class DubboPluginHealth {

    private static final AtomicLong failures = new AtomicLong();
    private static final AtomicLong asyncExpired = new AtomicLong();
    private static final AtomicLong asyncUnwatched = new AtomicLong();

    private DubboPluginHealth() {
    }

    static void countFailure() {
        failures.incrementAndGet();
    }

    static void countAsyncExpired() {
        asyncExpired.incrementAndGet();
    }

    static void countAsyncUnwatched() {
        asyncUnwatched.incrementAndGet();
    }

    /** Exceptions caught by the plugin's barriers (a defect of ours or an unexpected Dubbo version). */
    public static long failures() {
        return failures.get();
    }

    /** Asynchronous invocations that never completed and were ended by {@link AsyncWatchdog} after their deadline. */
    public static long asyncExpired() {
        return asyncExpired.get();
    }

    /** Asynchronous invocations left to Dubbo's own completion because the watchdog was full. */
    public static long asyncUnwatched() {
        return asyncUnwatched.get();
    }
}
