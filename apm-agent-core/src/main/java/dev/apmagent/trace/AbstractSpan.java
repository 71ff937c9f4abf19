package dev.apmagent.trace;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What transactions and spans share: trace context, name, timing, outcome and the reference count that decides when
 * the object goes back to its pool.
 *
 * <p>Reference counting: an object starts with one reference owned by whoever started it. {@link #end()} hands that
 * reference to the {@link Reporter}, which releases it after serializing. A child span holds one reference on its
 * parent until the child is recycled; {@link Tracer#activate(AbstractSpan) activation} holds one until deactivated.
 * When the count reaches 0 the object is reset (every field) and returned to the tracer's pool. Decrementing below 0
 * is a double recycle: it is counted ({@link #referenceUnderflows()}) and never recycles the object a second time.
 */
public abstract class AbstractSpan {

    /** Names longer than this are truncated. */
    public static final int MAX_NAME_LENGTH = 1024;

    private static final AtomicIntegerFieldUpdater<AbstractSpan> REFERENCES =
            AtomicIntegerFieldUpdater.newUpdater(AbstractSpan.class, "references");
    private static final AtomicIntegerFieldUpdater<AbstractSpan> ENDED =
            AtomicIntegerFieldUpdater.newUpdater(AbstractSpan.class, "ended");
    private static final AtomicLong UNDERFLOWS = new AtomicLong();

    /** The tracer that owns the pool this object returns to; null for a stand-alone object (tests). */
    final Tracer tracer;
    private final TraceContext traceContext = new TraceContext();
    private final StringBuilder name = new StringBuilder();
    long timestampMicros;
    long startNanos;
    private long durationNanos;
    private Outcome outcome = Outcome.UNKNOWN;
    private volatile int references;
    private volatile int ended;

    AbstractSpan(Tracer tracer) {
        this.tracer = tracer;
    }

    public TraceContext traceContext() {
        return traceContext;
    }

    /** The name, at most {@link #MAX_NAME_LENGTH} characters once ended; empty when none was set. */
    public CharSequence name() {
        return name;
    }

    /** Replaces the name with (at most {@link #MAX_NAME_LENGTH} characters of) {@code value}. */
    public void setName(CharSequence value) {
        Texts.copy(value, name, MAX_NAME_LENGTH);
    }

    /**
     * The name as a builder to append to without allocating; cleared first. Text beyond {@link #MAX_NAME_LENGTH} is cut
     * at {@link #end()}.
     */
    public StringBuilder nameBuilder() {
        name.setLength(0);
        return name;
    }

    /** Start as epoch microseconds. */
    public long timestampMicros() {
        return timestampMicros;
    }

    /** {@link System#nanoTime()} at start; the base of {@link #end(long)}. */
    public long startNanos() {
        return startNanos;
    }

    /** Duration in nanoseconds, set by {@link #end()}. */
    public long durationNanos() {
        return durationNanos;
    }

    public Outcome outcome() {
        return outcome;
    }

    public void setOutcome(Outcome outcome) {
        this.outcome = outcome == null ? Outcome.UNKNOWN : outcome;
    }

    public boolean isEnded() {
        return ended != 0;
    }

    /** Whether this event is recorded (its trace is sampled). */
    public boolean isSampled() {
        return traceContext.isSampled();
    }

    /** The transaction this event belongs to (itself for a transaction); null only for a stand-alone span. */
    public abstract Transaction transaction();

    /** Ends now; see {@link #end(long)}. */
    public final void end() {
        end(System.nanoTime());
    }

    /**
     * Ends at {@code nanoTime} (a {@link System#nanoTime()} reading) and hands the event, with the reference its starter
     * owned, to the reporter. Any thread may end an event; a second call is ignored. Never throws.
     */
    public final void end(long nanoTime) {
        if (!ENDED.compareAndSet(this, 0, 1)) {
            return;
        }
        long d = nanoTime - startNanos;
        durationNanos = d > 0 ? d : 0;
        if (name.length() > MAX_NAME_LENGTH) {
            name.setLength(MAX_NAME_LENGTH);
        }
        beforeHandOff();
        if (tracer != null) {
            handOff(tracer);
        } else {
            decrementReferences();
        }
    }

    /** Hook run on end, before the hand-off (e.g. drop what an unsampled event must not carry). */
    void beforeHandOff() {
    }

    /** Gives this ended event to the tracer's reporter. */
    abstract void handOff(Tracer tracer);

    public void incrementReferences() {
        REFERENCES.incrementAndGet(this);
    }

    /** Releases one reference; the last one resets the object and returns it to its pool. */
    public void decrementReferences() {
        int left = REFERENCES.decrementAndGet(this);
        if (left == 0) {
            recycle();
        } else if (left < 0) {
            // Double recycle: restore the count and count the defect; never release the object a second time.
            REFERENCES.incrementAndGet(this);
            countUnderflow();
        }
    }

    /** Current reference count (diagnostics and tests). */
    public int referenceCount() {
        return references;
    }

    static void countUnderflow() {
        UNDERFLOWS.incrementAndGet();
    }

    /** Number of {@code decrementReferences()} calls, on any transaction, span or error, that found no reference left. */
    public static long referenceUnderflows() {
        return UNDERFLOWS.get();
    }

    /** Sets the count of a freshly acquired object to 1 (the starter's reference). */
    final void initReferences() {
        REFERENCES.set(this, 1);
    }

    /** Resets every field and returns this object to its pool. */
    abstract void recycle();

    /** Resets the fields declared here. */
    void resetAbstractSpan() {
        traceContext.reset();
        Texts.clear(name, 4 * MAX_NAME_LENGTH);
        timestampMicros = 0;
        startNanos = 0;
        durationNanos = 0;
        outcome = Outcome.UNKNOWN;
        ENDED.set(this, 0);
        // references is 0 here by construction (only the last decrement recycles)
    }

    /** Starts the clock: stand-alone objects and tests; the tracer sets timing itself. */
    public void setTiming(long timestampMicros, long startNanos) {
        this.timestampMicros = timestampMicros;
        this.startNanos = startNanos;
    }

    /** Sets the duration directly (tests of serializers); {@link #end()} computes it otherwise. */
    public void setDurationNanos(long durationNanos) {
        this.durationNanos = durationNanos;
    }
}
