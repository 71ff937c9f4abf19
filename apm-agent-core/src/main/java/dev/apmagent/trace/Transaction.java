package dev.apmagent.trace;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A transaction: the root of the spans of one unit of work in this service (a request, a message, a job).
 * Pooled and reference counted (see {@link AbstractSpan}); started by {@link Tracer#startRootTransaction()} or
 * {@link Tracer#startTransaction(long, long, long, int, double, CharSequence)}.
 *
 * <p>An unsampled transaction records name, type, result, outcome and duration only: {@link Tracer#createSpan}
 * returns null for it and its {@link #context()} is cleared when it ends.
 */
public final class Transaction extends AbstractSpan {

    private static final AtomicIntegerFieldUpdater<Transaction> STARTED =
            AtomicIntegerFieldUpdater.newUpdater(Transaction.class, "spanCountStarted");
    private static final AtomicIntegerFieldUpdater<Transaction> DROPPED =
            AtomicIntegerFieldUpdater.newUpdater(Transaction.class, "spanCountDropped");

    private final TransactionContext context;
    private String type;
    private String result;
    private CharSequence frameworkName;
    private CharSequence frameworkVersion;
    private volatile int spanCountStarted;
    private volatile int spanCountDropped;
    private int maxSpans;

    /** A stand-alone transaction (tests): not pooled, one reference, ending it just releases that reference. */
    public Transaction() {
        super(null);
        context = new TransactionContext();
        maxSpans = Integer.MAX_VALUE;
        initReferences();
    }

    Transaction(Tracer tracer) {
        super(tracer);
        context = new TransactionContext(tracer.urlSanitizer());
    }

    @Override
    public Transaction transaction() {
        return this;
    }

    /** E.g. "request"; may be null. */
    public String type() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    /** E.g. "HTTP 2xx"; may be null. */
    public String result() {
        return result;
    }

    public void setResult(String result) {
        this.result = result;
    }

    /** Number of spans recorded. */
    public int spanCountStarted() {
        return spanCountStarted;
    }

    /** Number of spans not recorded because {@code transaction_max_spans} was reached. */
    public int spanCountDropped() {
        return spanCountDropped;
    }

    /** Spans recorded at most. */
    public int maxSpans() {
        return maxSpans;
    }

    public TransactionContext context() {
        return context;
    }

    /** E.g. "Servlet API"; may be null. */
    public CharSequence frameworkName() {
        return frameworkName;
    }

    public CharSequence frameworkVersion() {
        return frameworkVersion;
    }

    public void setFramework(CharSequence name, CharSequence version) {
        this.frameworkName = name;
        this.frameworkVersion = version;
    }

    /** Sets the span counts directly (tests of serializers); the tracer counts them otherwise. */
    public void setSpanCounts(int started, int dropped) {
        STARTED.set(this, started);
        DROPPED.set(this, dropped);
    }

    void setMaxSpans(int maxSpans) {
        this.maxSpans = maxSpans;
    }

    /**
     * Reserves one of the {@code transaction_max_spans} slots: true when the span may be recorded (counted in
     * started), false when it is dropped (counted in dropped). Lock-free; any thread.
     */
    boolean tryReserveSpan() {
        int n = STARTED.incrementAndGet(this);
        if (n <= maxSpans) {
            return true;
        }
        STARTED.decrementAndGet(this);
        DROPPED.incrementAndGet(this);
        return false;
    }

    @Override
    void beforeHandOff() {
        if (!isSampled()) {
            context.reset();
        }
    }

    @Override
    void handOff(Tracer tracer) {
        tracer.handOff(this);
    }

    @Override
    void recycle() {
        resetAbstractSpan();
        context.reset();
        type = null;
        result = null;
        frameworkName = null;
        frameworkVersion = null;
        STARTED.set(this, 0);
        DROPPED.set(this, 0);
        maxSpans = 0;
        if (tracer != null) {
            tracer.release(this);
        }
    }
}
