package dev.apmagent.plugin;

import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;

/**
 * The exit call of one kind in progress on a thread (a JDBC statement, an HTTP request), as its enter advice hands it
 * to its exit advice: how deeply calls of that kind nest, the event that was active when the outermost one started,
 * and the span the outermost one records. An {@link ExitCallGuard} keeps one per thread and gives the same object to
 * every call nested in the outermost one; a plugin extends it with what nested calls complete (a statement's SQL).
 * Only its own thread touches it.
 *
 * <p>Exit advice ends the call it entered with {@link #exit}, never the thread's current one: if the thread started
 * afresh meanwhile (see {@link ExitCallGuard#enter}), the outer call still ends its own span.
 */
public abstract class ExitCall {

    int depth;
    /** The event active when the outermost call started (compared by identity only). */
    AbstractSpan parent;
    private Span span;
    private Tracer tracer;
    /**
     * When the outermost call started, for a call that decides at exit whether it records a span ({@link #deferSpan});
     * else 0. A span such a call records is created at exit ({@link #startLate}) and never activated.
     */
    private long startNanos;

    protected ExitCall() {
    }

    /** Whether this call runs inside another call of its kind; then it records nothing of its own. */
    public final boolean isNested() {
        return depth > 1;
    }

    /**
     * The outermost call's span; null when it records none (not sampled, {@code transaction_max_spans} reached, a kind
     * of call that records no span) or has not started it yet.
     */
    public final Span span() {
        return span;
    }

    /** The outermost call starts its span: created under the event active at enter, filled in by the plugin. */
    public final void start(Tracer tracer, Span span) {
        this.tracer = tracer;
        this.span = span;
        tracer.activate(span);
    }

    /**
     * The outermost call records no span yet and decides at exit whether it records one ({@link #startLate}): it
     * only reads the clock, so a call that usually has nothing worth showing (a pooled connection handed out in a
     * microsecond) costs no event, no activation and no hand-off.
     */
    public final void deferSpan() {
        startNanos = System.nanoTime();
    }

    /** Whether this is the outermost call, it deferred its span ({@link #deferSpan}) and has not started one. */
    public final boolean awaitsSpan() {
        return depth == 1 && startNanos != 0 && span == null;
    }

    /** How long the outermost call that deferred its span ({@link #awaitsSpan}) has run. */
    public final long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    /**
     * At exit, the outermost call that deferred its span records it after all: a child of the event active at enter,
     * started when the call started, never activated (what ran inside the call is over), ended by {@link #exit} like
     * any other. Returns the span for the plugin to fill in, or null (not sampled, {@code transaction_max_spans}).
     */
    public final Span startLate(Tracer tracer) {
        Span s = tracer.createSpan(parent, startNanos);
        if (s != null) {
            this.tracer = tracer;
            this.span = s;
        }
        return s;
    }

    /**
     * Leaves the call. A nested call only goes one level up. The outermost call is forgotten (the thread's next call
     * of this kind is outermost again) and then its span, if it started one, ends through {@link SpanExit#end}: what the
     * plugin still asks the library before calling this runs while the call is in progress, so it records nothing.
     */
    public final void exit(Throwable thrown) {
        if (depth > 1) {
            depth--;
            return;
        }
        Span s = span;
        Tracer t = tracer;
        boolean createdAtExit = forget();
        if (s == null) {
            return;
        }
        if (createdAtExit) {
            SpanExit.endInactive(t, s, thrown);
        } else {
            SpanExit.end(t, s, thrown);
        }
    }

    /** Forgets the outermost call (the thread's next call is outermost again); whether its span was created at exit. */
    private boolean forget() {
        boolean createdAtExit = startNanos != 0;
        depth = 0;
        parent = null;
        span = null;
        tracer = null;
        startNanos = 0;
        return createdAtExit;
    }

    /**
     * Leaves the call without ending its span, for a call whose span outlives it (an asynchronous request, whose
     * response arrives on another thread; a request made over several calls of the library). A nested call only goes
     * one level up and returns null. The outermost call is forgotten, its span (if it started one) is deactivated and
     * returned: the caller now owns it and must end it exactly once, from any thread (see {@link PendingSpan}).
     */
    public final Span detach() {
        if (depth > 1) {
            depth--;
            return null;
        }
        Span s = span;
        Tracer t = tracer;
        boolean createdAtExit = forget();
        if (s != null && !createdAtExit) {
            t.deactivate(s); // a span is only ever set together with its tracer
        }
        return s;
    }

    /** Whether {@code active} is what calls nested in this one see active: its span, or the event active at its start. */
    final boolean isOwnerContext(AbstractSpan active) {
        return active == span || active == parent;
    }
}
