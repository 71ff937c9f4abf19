package dev.apmagent.plugin.okhttp;

import dev.apmagent.plugin.HttpClientExits.PendingHttpExit;
import dev.apmagent.trace.AbstractSpan;

/**
 * An enqueued call between {@code enqueue} and the end of its run on OkHttp's dispatcher: its pending exit span, and
 * the event that was active when the application enqueued it (held by a reference until the run ends), which the
 * dispatcher thread activates while the call runs, so the application's callback runs in the caller's context. Never
 * refers to the call it is stored under (the store's map holds values strongly).
 */
final class AsyncCallState {

    final PendingHttpExit pending;
    final AbstractSpan caller;
    /** Whether the dispatcher thread activated {@link #caller}; only that thread reads and writes it. */
    boolean activated;

    AsyncCallState(PendingHttpExit pending, AbstractSpan caller) {
        this.pending = pending;
        this.caller = caller;
    }
}
