package dev.apmagent.plugin;

import dev.apmagent.trace.AbstractSpan;

import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * A span (or a transaction: an asynchronous RPC's provider side) whose call is over on the thread that started it but whose end comes later, from whichever thread sees it
 * first: the callback of an asynchronous request ({@code sendAsync}, {@code enqueue}, an async client's future), a
 * later call of the library (an {@code HttpURLConnection} whose response is read after {@code connect()} returned),
 * or, if neither ever comes, the {@link PendingSpans} scan once the deadline passed.
 *
 * <p>Ownership is the whole point: the span is held in one field, and {@link #take()} swaps it out with one atomic
 * exchange, so exactly one taker gets it and ends it; the others get null and must not touch it (it may already be
 * recycled into the pool and serve another request). A taker ends what it took, once ({@link SpanExit#endInactive}).
 * The span is never active on any thread while pending ({@link ExitCall#detach} deactivated it), so the pool's
 * reference counting sees exactly the starter's reference, which the end hands to the reporter. The Dubbo plugin's
 * asynchronous invocations and the HTTP clients' ({@link HttpClientExits.PendingHttpExit}) are pending spans.
 */
public abstract class PendingSpan {

    private static final AtomicReferenceFieldUpdater<PendingSpan, AbstractSpan> SPAN =
            AtomicReferenceFieldUpdater.newUpdater(PendingSpan.class, AbstractSpan.class, "span");

    private volatile AbstractSpan span;
    private final long deadlineNanos;
    /** Written by whichever thread last saw the request progress; a racing write loses a few microseconds at most. */
    private volatile long lastActivityNanos;

    /** @param timeoutNanos from now until the {@link PendingSpans} scan may end the span ({@link #onExpired}) */
    protected PendingSpan(AbstractSpan span, long timeoutNanos) {
        long now = System.nanoTime();
        this.span = span;
        this.lastActivityNanos = now;
        this.deadlineNanos = now + timeoutNanos;
    }

    /** The span, for the one caller that gets it; null when another caller (or the scan) took it first. */
    public final AbstractSpan take() {
        return SPAN.getAndSet(this, null);
    }

    /** Whether the span was taken (ended or being ended). */
    public final boolean isDone() {
        return span == null;
    }

    /** Records that the request made progress now (a later call of the library): see {@link #lastActivityNanos()}. */
    public final void touch() {
        lastActivityNanos = System.nanoTime();
    }

    /** When the request was last seen making progress ({@link System#nanoTime()}): its start, or the last {@link #touch()}. */
    public final long lastActivityNanos() {
        return lastActivityNanos;
    }

    final long deadlineNanos() {
        return deadlineNanos;
    }

    /**
     * The scan's verdict (and tests'): the deadline passed; hands the span to {@link #onExpired} if nobody took it yet.
     *
     * @return whether this call took it
     */
    public final boolean expire() {
        AbstractSpan s = take();
        if (s == null) {
            return false;
        }
        onExpired(s);
        return true;
    }

    /**
     * Ends {@code span}, which nothing ended before its deadline; runs on the agent's scheduler thread and must end it
     * whatever fails (e.g. {@code span.end(lastActivityNanos())}, or {@link SpanExit#endInactive} to end it now).
     */
    protected abstract void onExpired(AbstractSpan span);
}
