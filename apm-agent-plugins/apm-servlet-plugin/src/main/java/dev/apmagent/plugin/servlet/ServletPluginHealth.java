package dev.apmagent.plugin.servlet;

import java.util.concurrent.atomic.AtomicLong;

/** Counts failures inside the plugin's helpers; never logged per call (see the agent's health metrics). */
public final class ServletPluginHealth {

    private static final AtomicLong failures = new AtomicLong();

    private ServletPluginHealth() {
    }

    static void failure() {
        failures.incrementAndGet();
    }

    public static long failures() {
        return failures.get();
    }
}
