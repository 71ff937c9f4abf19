package dev.apmagent.plugin;

import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Tracer;

/**
 * The one way a plugin ends what its enter advice started: deactivate it, set its outcome unless the plugin already
 * did (a status code decides for HTTP), capture the exception the call threw (it is rethrown unchanged by the
 * application's own code), end it. The event is ended whatever fails in between, so nothing of ours stays open.
 */
public final class SpanExit {

    private SpanExit() {
    }

    /**
     * Ends {@code event}, which the calling thread activated (pass a null {@code tracer} when the agent stopped in the
     * meantime: the event is then only ended).
     */
    public static void end(Tracer tracer, AbstractSpan event, Throwable thrown) {
        try {
            if (tracer != null) {
                tracer.deactivate(event);
            }
            fail(tracer, event, thrown);
        } finally {
            event.end();
        }
    }

    /** Ends {@code event}, which is not active on the calling thread (an asynchronous completion). */
    public static void endInactive(Tracer tracer, AbstractSpan event, Throwable thrown) {
        try {
            fail(tracer, event, thrown);
        } finally {
            event.end();
        }
    }

    private static void fail(Tracer tracer, AbstractSpan event, Throwable thrown) {
        if (thrown != null) {
            if (event.outcome() == Outcome.UNKNOWN) {
                event.setOutcome(Outcome.FAILURE);
            }
            if (tracer != null) {
                tracer.captureException(thrown, event);
            }
        } else if (event.outcome() == Outcome.UNKNOWN) {
            event.setOutcome(Outcome.SUCCESS);
        }
    }
}
