package dev.apmagent.trace;

/**
 * A span: one operation inside a transaction (a query, an outgoing call). Pooled and reference counted (see
 * {@link AbstractSpan}); a span holds one reference on its parent (span or transaction) until the span itself is
 * recycled, so a transaction with a running or unreported child span is never recycled.
 */
public final class Span extends AbstractSpan {

    private final SpanContext context;
    private String type;
    private String subtype;
    private String action;
    private boolean exit;
    private long transactionId;
    private AbstractSpan parent;
    private Transaction transaction;

    /** A stand-alone span (tests): not pooled, no parent, one reference; ending it just releases that reference. */
    public Span() {
        super(null);
        context = new SpanContext();
        initReferences();
    }

    Span(Tracer tracer) {
        super(tracer);
        context = new SpanContext(tracer.urlSanitizer());
    }

    /** E.g. "db"; may be null. */
    public String type() {
        return type;
    }

    /** E.g. "postgresql"; may be null. */
    public String subtype() {
        return subtype;
    }

    /** E.g. "query"; may be null. */
    public String action() {
        return action;
    }

    public void setType(String type, String subtype, String action) {
        this.type = type;
        this.subtype = subtype;
        this.action = action;
    }

    /** Id of the owning transaction ({@code parent_id} is {@code traceContext().parentId()}). */
    public long transactionId() {
        return transactionId;
    }

    public void setTransactionId(long transactionId) {
        this.transactionId = transactionId;
    }

    /** Whether this span leaves the service (a call to a database or another service). */
    public boolean isExit() {
        return exit;
    }

    public void setExit(boolean exit) {
        this.exit = exit;
    }

    public SpanContext context() {
        return context;
    }

    /** The parent (a transaction or span) this span holds a reference on; null for a stand-alone span. */
    public AbstractSpan parent() {
        return parent;
    }

    @Override
    public Transaction transaction() {
        return transaction;
    }

    /** Links this span under {@code parent} and takes a reference on it. */
    void attach(AbstractSpan parent, Transaction transaction) {
        parent.incrementReferences();
        this.parent = parent;
        this.transaction = transaction;
        this.transactionId = transaction.traceContext().id();
    }

    @Override
    void handOff(Tracer tracer) {
        tracer.handOff(this);
    }

    @Override
    void recycle() {
        AbstractSpan releasedParent = parent;
        resetAbstractSpan();
        context.reset();
        type = null;
        subtype = null;
        action = null;
        exit = false;
        transactionId = 0;
        parent = null;
        transaction = null;
        if (tracer != null) {
            tracer.release(this);
        }
        if (releasedParent != null) {
            releasedParent.decrementReferences();
        }
    }
}
