package dev.apmagent.report;

/** Why an event never reached the APM Server (or the output file). */
public enum DropReason {
    /** The hand-off ring from application threads was full (or, rarely, two claim attempts lost a race). */
    QUEUE_FULL,
    /** The serialized event was larger than max_event_size or than the whole byte buffer. */
    TOO_BIG,
    /** Part of a request the APM Server answered with an error and did not count as accepted. */
    SERVER_REJECTED,
    /** In flight in a request whose connection failed before the server replied; the server may or may not have it. */
    SEND_FAILED,
    /** Could not be serialized (a bug or a misbehaving event object); logged. */
    SERIALIZATION_FAILED
}
