package dev.apmagent.trace;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A captured exception ({@link Tracer#captureException(Throwable, AbstractSpan)}). Pooled and reference counted like
 * spans.
 *
 * <p>Design choice: an error refers to nothing pooled. At capture it copies what it needs from its parent (trace id,
 * parent id, transaction id, transaction name into its own builder, type, sampled), so the parent transaction or span
 * can be recycled independently, before or after the error is serialized. The only reference it holds is to the
 * application's {@link Throwable}, dropped on recycle.
 */
public final class ErrorEvent {

    private static final AtomicIntegerFieldUpdater<ErrorEvent> REFERENCES =
            AtomicIntegerFieldUpdater.newUpdater(ErrorEvent.class, "references");

    /** The tracer that owns the pool this object returns to; null for a stand-alone object (tests). */
    final Tracer tracer;
    private long idHigh;
    private long idLow;
    private long timestampMicros;
    private long traceIdHigh;
    private long traceIdLow;
    private long parentId;
    private long transactionId;
    private boolean transactionSampled;
    private String transactionType;
    private final StringBuilder transactionName = new StringBuilder();
    private Throwable exception;
    private int stackTraceLimit;
    private CharSequence culprit;
    private boolean handled;
    private volatile int references;

    /** A stand-alone error (tests): not pooled, one reference. */
    public ErrorEvent() {
        this(null);
        REFERENCES.set(this, 1);
    }

    ErrorEvent(Tracer tracer) {
        this.tracer = tracer;
    }

    /** High 64 bits of the 128-bit error id. */
    public long idHigh() {
        return idHigh;
    }

    public long idLow() {
        return idLow;
    }

    public long timestampMicros() {
        return timestampMicros;
    }

    /** 0 when there was no active transaction/span. */
    public long traceIdHigh() {
        return traceIdHigh;
    }

    public long traceIdLow() {
        return traceIdLow;
    }

    /** Id of the span or transaction active at capture; 0 when none. */
    public long parentId() {
        return parentId;
    }

    /** 0 when there was no transaction. */
    public long transactionId() {
        return transactionId;
    }

    /** Whether a transaction was known at capture ({@code transaction} object of the event). */
    public boolean hasTransaction() {
        return transactionId != 0;
    }

    public boolean transactionSampled() {
        return transactionSampled;
    }

    public String transactionType() {
        return transactionType;
    }

    /** Copied at capture; empty when unknown. */
    public CharSequence transactionName() {
        return transactionName;
    }

    public Throwable exception() {
        return exception;
    }

    /** Stack frames the reporter writes at most. */
    public int stackTraceLimit() {
        return stackTraceLimit;
    }

    /** May be null: the reporter then derives it from the first frame. */
    public CharSequence culprit() {
        return culprit;
    }

    public void setCulprit(CharSequence culprit) {
        this.culprit = culprit;
    }

    public boolean handled() {
        return handled;
    }

    /** Fills the id and capture data; the tracer calls this, tests may too. */
    public void set(long idHigh, long idLow, long timestampMicros, Throwable exception, boolean handled, int stackTraceLimit) {
        this.idHigh = idHigh;
        this.idLow = idLow;
        this.timestampMicros = timestampMicros;
        this.exception = exception;
        this.handled = handled;
        this.stackTraceLimit = stackTraceLimit;
    }

    /** Copies trace and transaction identity from {@code parent} (the active span or transaction); null leaves them 0. */
    public void copyParent(AbstractSpan parent) {
        if (parent == null) {
            return;
        }
        TraceContext tc = parent.traceContext();
        traceIdHigh = tc.traceIdHigh();
        traceIdLow = tc.traceIdLow();
        parentId = tc.id();
        Transaction t = parent.transaction();
        if (t != null) {
            transactionId = t.traceContext().id();
            transactionSampled = t.isSampled();
            transactionType = t.type();
            Texts.copy(t.name(), transactionName, AbstractSpan.MAX_NAME_LENGTH);
        }
    }

    public void incrementReferences() {
        REFERENCES.incrementAndGet(this);
    }

    /** Releases one reference; the last one resets this error and returns it to its pool. */
    public void decrementReferences() {
        int left = REFERENCES.decrementAndGet(this);
        if (left == 0) {
            recycle();
        } else if (left < 0) {
            REFERENCES.incrementAndGet(this);
            AbstractSpan.countUnderflow();
        }
    }

    public int referenceCount() {
        return references;
    }

    void initReferences() {
        REFERENCES.set(this, 1);
    }

    private void recycle() {
        idHigh = 0;
        idLow = 0;
        timestampMicros = 0;
        traceIdHigh = 0;
        traceIdLow = 0;
        parentId = 0;
        transactionId = 0;
        transactionSampled = false;
        transactionType = null;
        Texts.clear(transactionName, 4 * AbstractSpan.MAX_NAME_LENGTH);
        exception = null;
        stackTraceLimit = 0;
        culprit = null;
        handled = false;
        if (tracer != null) {
            tracer.release(this);
        }
    }
}
