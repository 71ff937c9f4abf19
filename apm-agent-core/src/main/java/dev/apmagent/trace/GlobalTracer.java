package dev.apmagent.trace;

import dev.apmagent.config.Config;

/**
 * How plugin helpers reach the tracer and the configuration: the agent's start-up sets them once; before that (and
 * when the agent is disabled) {@link #get()} returns null and helpers do nothing. One volatile read per call.
 */
public final class GlobalTracer {

    private static volatile Tracer tracer;
    private static volatile Config config = Config.defaults();

    private GlobalTracer() {
    }

    /** The running tracer, or null when none is running. */
    public static Tracer get() {
        return tracer;
    }

    /** The configuration snapshot the running agent was started with (defaults before start). */
    public static Config config() {
        return config;
    }

    /** Set by the agent's start-up, and by tests. */
    public static void set(Tracer newTracer, Config newConfig) {
        config = newConfig == null ? Config.defaults() : newConfig;
        tracer = newTracer;
    }

    /** Set the tracer, keeping the configuration (tests). */
    public static void set(Tracer newTracer) {
        tracer = newTracer;
    }
}
