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
        depth = 0;
        parent = null;
        span = null;
        tracer = null;
        if (s != null) {
            SpanExit.end(t, s, thrown);
        }
    }

    /** Whether {@code active} is what calls nested in this one see active: its span, or the event active at its start. */
    final boolean isOwnerContext(AbstractSpan active) {
        return active == span || active == parent;
    }
}
