package dev.apmagent.view;

/**
 * What the viewer keeps of one transaction, span or error: the few fields it prints, never the event's JSON tree.
 * Missing strings are {@code null}, a missing timestamp is {@link #UNKNOWN_TIME} and a missing duration is NaN.
 */
final class Event {

    static final long UNKNOWN_TIME = Long.MIN_VALUE;

    enum Kind { TRANSACTION, SPAN, ERROR }

    final Kind kind;
    /** 1-based line of the file the event was read from; orders events that start at the same time. */
    final long line;
    final String id;
    final String parentId;
    final String traceId;
    final String transactionId;
    final String name;
    final String type;
    final String subtype;
    final String action;
    final String outcome;
    /** Epoch microseconds; for spans that only carry a {@code start} offset it is resolved after reading. */
    long timestampMicros;
    /** A span's {@code start} offset in milliseconds from its transaction, when it has no timestamp (RUM agents). */
    final double startOffsetMillis;
    final double durationMillis;
    /** For errors: the transaction name the error carries in {@code transaction.name}. */
    final String transactionName;

    Event(Kind kind, long line, String id, String parentId, String traceId, String transactionId, String name,
          String type, String subtype, String action, String outcome, long timestampMicros, double startOffsetMillis,
          double durationMillis, String transactionName) {
        this.kind = kind;
        this.line = line;
        this.id = id;
        this.parentId = parentId;
        this.traceId = traceId;
        this.transactionId = transactionId;
        this.name = name;
        this.type = type;
        this.subtype = subtype;
        this.action = action;
        this.outcome = outcome;
        this.timestampMicros = timestampMicros;
        this.startOffsetMillis = startOffsetMillis;
        this.durationMillis = durationMillis;
        this.transactionName = transactionName;
    }

    boolean hasTimestamp() {
        return timestampMicros != UNKNOWN_TIME;
    }

    boolean hasDuration() {
        return !Double.isNaN(durationMillis);
    }

    /** End of the event in epoch microseconds, counting an unknown duration as zero. */
    double endMicros() {
        return timestampMicros + (hasDuration() ? durationMillis * 1000.0 : 0.0);
    }

    /** {@code type/subtype/action}, leaving out the optional parts that are absent; "?" without a type. */
    String typeLabel() {
        StringBuilder sb = new StringBuilder(type == null ? "?" : type);
        if (subtype != null) {
            sb.append('/').append(subtype);
        }
        if (action != null) {
            sb.append('/').append(action);
        }
        return sb.toString();
    }
}
