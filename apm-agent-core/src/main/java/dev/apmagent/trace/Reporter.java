package dev.apmagent.trace;

/**
 * Receives ended events from the tracer (on the thread that ended them). In every case the reporter owns one reference
 * of the event and calls {@code decrementReferences()} exactly once: after serializing it, or at once when dropping it.
 * Implementations never block and never throw.
 */
public interface Reporter {

    /** @return false when the event was dropped */
    boolean report(Transaction transaction);

    /** @return false when the event was dropped */
    boolean report(Span span);

    /** @return false when the event was dropped */
    boolean report(ErrorEvent error);
}
