package dev.apmagent.trace;

/**
 * How plugin helpers reach the tracer: the agent's start-up sets it once; before that (and when the agent is
 * disabled) {@link #get()} returns null and helpers do nothing. One volatile read per call.
 */
public final class GlobalTracer {

    private static volatile Tracer tracer;

    private GlobalTracer() {
    }

    /** The running tracer, or null when none is running. */
    public static Tracer get() {
        return tracer;
    }

    /** Set by the agent's start-up, and by tests. */
    public static void set(Tracer newTracer) {
        tracer = newTracer;
    }
}
