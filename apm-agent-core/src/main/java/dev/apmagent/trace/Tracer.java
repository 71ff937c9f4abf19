package dev.apmagent.trace;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.pool.ObjectPool;
import dev.apmagent.pool.ObjectPoolFactory;
import dev.apmagent.pool.ObjectPools;
import dev.apmagent.pool.VirtualThreads;

/**
 * Starts transactions and spans, keeps the per-thread active stack, captures errors and hands ended events to the
 * {@link Reporter}. Configuration is read once in the constructor. Every public method is lock-free, allocation-free
 * after warm-up (objects come from pools) and never throws into the application.
 *
 * <h2>Contract for callers (plugins)</h2>
 * <pre>
 * Transaction t = tracer.startRootTransaction();          // or startTransaction(traceIdHigh, ..., tracestate)
 * t.setName(...); t.setType("request");
 * tracer.activate(t);
 * try {
 *     Span s = tracer.createSpan();                        // child of the active event; null = not recorded
 *     if (s != null) { s.setName(...); s.setType("db", "h2", "query"); ... s.end(); }
 * } catch (Throwable e) {
 *     tracer.captureException(e, t);
 * } finally {
 *     tracer.deactivate(t);
 *     t.end();                                             // hands the event to the reporter
 * }
 * </pre>
 * {@code createSpan} returns null (allocating nothing) when nothing is active, the trace is not sampled, or
 * {@code transaction_max_spans} is reached (then counted in {@code span_count.dropped}). A started event must be ended
 * exactly once, by any thread; after {@code end()} the caller must not touch it unless it holds a reference
 * (activation or {@link AbstractSpan#incrementReferences()}).
 */
public final class Tracer {

    /** Transactions and spans moved per batch by the thread_local pool; small, as each platform thread caches two. */
    static final int TRANSACTION_BATCH = 4;
    static final int SPAN_BATCH = 8;
    static final int ERROR_BATCH = 2;

    private static final long SAMPLE_MASK = (1L << 56) - 1;

    private final Reporter reporter;
    private final double sampleRate;
    private final long sampleThreshold;
    /** Outgoing tracestate of local roots, built once: {@code es=s:<rate>} (sampled) and {@code es=s:0}. */
    private final String sampledTracestate;
    private final String unsampledTracestate;
    private final int maxSpans;
    private final int stackTraceLimit;
    private final String poolStrategy;
    private final UrlSanitizer urlSanitizer;
    private final ObjectPool<Transaction> transactionPool;
    private final ObjectPool<Span> spanPool;
    private final ObjectPool<ErrorEvent> errorPool;
    private final ThreadLocal<ActiveStack> activeStacks = new ThreadLocal<ActiveStack>();

    private final AtomicLong reporterFailures = new AtomicLong();
    private final AtomicLong poolConflicts = new AtomicLong();
    private final AtomicLong deactivationMismatches = new AtomicLong();
    private final AtomicLong unwoundActivations = new AtomicLong();

    /** Half of what the transaction and span pools keep at most (the error pool keeps this many). */
    static final int POOL_KEEPS_AT_MOST = 1024;

    /** A tracer with the pool strategy of {@code object_pool}. */
    public Tracer(Config config, Reporter reporter) {
        this(config, reporter, ObjectPools.factory(config.get(CoreOptions.OBJECT_POOL)));
    }

    /**
     * A tracer with pools from {@code pools} (tests wrap a strategy to check every object comes back once). Reads
     * {@code transaction_sample_rate}, {@code transaction_max_spans}, {@code stack_trace_limit}, {@code object_pool}
     * and {@code max_queue_size} once: the shared tier of the transaction and span pools holds
     * 2 x min(max_queue_size, {@value #POOL_KEEPS_AT_MOST}) objects, the error pool half of that.
     */
    public Tracer(Config config, Reporter reporter, ObjectPoolFactory pools) {
        if (reporter == null) {
            throw new IllegalArgumentException("reporter is required");
        }
        this.reporter = reporter;
        this.sampleRate = roundSampleRate(config.get(CoreOptions.TRANSACTION_SAMPLE_RATE));
        this.sampleThreshold = sampleThreshold(sampleRate);
        this.sampledTracestate = "es=s:" + formatSampleRate(sampleRate);
        this.unsampledTracestate = "es=s:0";
        this.maxSpans = config.get(CoreOptions.TRANSACTION_MAX_SPANS);
        this.stackTraceLimit = config.get(CoreOptions.STACK_TRACE_LIMIT);
        this.poolStrategy = config.get(CoreOptions.OBJECT_POOL);
        this.urlSanitizer = UrlSanitizer.of(config); // before the pools, which may create events at once
        // what a pool keeps for reuse follows the steady state, not the hand-off's capacity: events beyond it, made while
        // the reporter lags behind a burst, go to the garbage collector once reported
        int queueSize = Math.min(config.get(CoreOptions.MAX_QUEUE_SIZE), POOL_KEEPS_AT_MOST);
        final Tracer tracer = this;
        this.transactionPool = pools.create("transaction", 2 * queueSize, TRANSACTION_BATCH,
                new ObjectPool.Allocator<Transaction>() {
                    @Override
                    public Transaction create() {
                        return new Transaction(tracer);
                    }
                });
        this.spanPool = pools.create("span", 2 * queueSize, SPAN_BATCH, new ObjectPool.Allocator<Span>() {
            @Override
            public Span create() {
                return new Span(tracer);
            }
        });
        this.errorPool = pools.create("error", queueSize, ERROR_BATCH, new ObjectPool.Allocator<ErrorEvent>() {
            @Override
            public ErrorEvent create() {
                return new ErrorEvent(tracer);
            }
        });
    }

    /** {@code rate} rounded to 4 decimals (as the Elastic agents do), clamped to 0..1. */
    static double roundSampleRate(double rate) {
        if (!(rate > 0)) {
            return 0;
        }
        if (rate >= 1) {
            return 1;
        }
        return Math.round(rate * 10_000d) / 10_000d;
    }

    /** A rounded rate as the {@code es=s:} tracestate entry writes it: "1", "0", "0.5", "0.1235". */
    static String formatSampleRate(double rate) {
        if (rate >= 1) {
            return "1";
        }
        if (rate <= 0) {
            return "0";
        }
        return java.math.BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString();
    }

    /** A trace is sampled when the low 56 bits of its trace id are below this threshold. */
    static long sampleThreshold(double rate) {
        if (rate >= 1) {
            return Long.MAX_VALUE;
        }
        return (long) (rate * (SAMPLE_MASK + 1));
    }

    /** Whether a local root with this trace id is sampled: deterministic for the trace id. */
    boolean isSampled(long traceIdLow) {
        return (traceIdLow & SAMPLE_MASK) < sampleThreshold;
    }

    // ---------------------------------------------------------------- transactions

    /**
     * Starts a transaction that begins a new trace, sampled according to {@code transaction_sample_rate}; its
     * tracestate is {@code es=s:<rate>} ({@code es=s:0} when not sampled), so downstream services record the rate.
     */
    public Transaction startRootTransaction() {
        Transaction t = acquireTransaction();
        long traceIdHigh = nonZeroRandom();
        long traceIdLow = nonZeroRandom();
        boolean sampled = isSampled(traceIdLow);
        TraceContext tc = t.traceContext();
        tc.initRoot(traceIdHigh, traceIdLow, nonZeroRandom(), sampled, sampled ? sampleRate : 0);
        tc.setTracestate(sampled ? sampledTracestate : unsampledTracestate);
        startClock(t);
        return t;
    }

    /**
     * Starts a transaction continuing a remote parent whose {@code traceparent}/{@code tracestate} were already parsed.
     * The sampling decision is the parent's (flags bit 0). An invalid parent (zero trace id or parent id) starts a
     * root transaction instead.
     *
     * @param flags      W3C trace-flags
     * @param sampleRate the {@code es=s:} value of the tracestate, or {@link Double#NaN} when it had none
     * @param tracestate the incoming tracestate, propagated as is (the parser keeps or rewrites its {@code es} entry),
     *                   or null
     */
    public Transaction startTransaction(long traceIdHigh, long traceIdLow, long parentId, int flags, double sampleRate,
                                        CharSequence tracestate) {
        if ((traceIdHigh == 0 && traceIdLow == 0) || parentId == 0) {
            return startRootTransaction();
        }
        Transaction t = acquireTransaction();
        t.traceContext().initRemoteChild(traceIdHigh, traceIdLow, parentId, flags, sampleRate, tracestate, nonZeroRandom());
        startClock(t);
        return t;
    }

    private void startClock(Transaction t) {
        t.setMaxSpans(maxSpans);
        // the one wall-clock read of this transaction; everything after is a nanoTime delta
        t.timestampMicros = System.currentTimeMillis() * 1000L;
        t.startNanos = System.nanoTime();
    }

    private Transaction acquireTransaction() {
        Transaction t = transactionPool.acquire();
        if (t.referenceCount() != 0) {
            // the pool handed out an object still in use (a double release happened): never reuse it
            poolConflicts.incrementAndGet();
            t = new Transaction(this);
        }
        t.initReferences();
        return t;
    }

    // ---------------------------------------------------------------- spans

    /** A child of the event active on this thread, or null (nothing active, not sampled, or max spans reached). */
    public Span createSpan() {
        return createSpan(active());
    }

    /**
     * A child of {@code parent}, started now, or null when {@code parent} is null, not sampled, or its transaction
     * reached {@code transaction_max_spans} (counted as dropped). The caller must hold a reference on {@code parent}
     * (it is active, or not yet ended). The span holds a reference on its parent until the span is recycled.
     */
    public Span createSpan(AbstractSpan parent) {
        return createSpan(parent, System.nanoTime());
    }

    /**
     * A child of {@code parent} that started at {@code startNanos} (a {@link System#nanoTime()} reading, not before
     * {@code parent} started): a span recorded after the fact, once its call turned out to be worth showing. Otherwise as
     * {@link #createSpan(AbstractSpan)}.
     */
    public Span createSpan(AbstractSpan parent, long startNanos) {
        if (parent == null || !parent.isSampled()) {
            return null;
        }
        Transaction t = parent.transaction();
        if (t == null || !t.tryReserveSpan()) {
            return null;
        }
        Span s = spanPool.acquire();
        if (s.referenceCount() != 0) {
            poolConflicts.incrementAndGet();
            s = new Span(this);
        }
        s.initReferences();
        s.traceContext().initChild(parent.traceContext(), nonZeroRandom());
        s.attach(parent, t);
        s.startNanos = startNanos;
        s.timestampMicros = t.timestampMicros + (startNanos - t.startNanos) / 1000L;
        return s;
    }

    // ---------------------------------------------------------------- activation

    /**
     * Makes {@code event} the active event of this thread (on top of the stack) and takes a reference on it, so it
     * is not recycled while active even if another thread ends it. Null is ignored.
     */
    public void activate(AbstractSpan event) {
        if (event == null) {
            return;
        }
        ActiveStack stack = activeStacks.get();
        if (stack == null) {
            stack = new ActiveStack();
            activeStacks.set(stack);
        }
        if (stack.push(event)) {
            event.incrementReferences();
        }
    }

    /**
     * Removes {@code event} from this thread's active stack and releases the activation's reference. Rules:
     * <ul>
     *   <li>{@code event} on top: popped;</li>
     *   <li>{@code event} deeper in the stack (events above it were activated and never deactivated, e.g. an exception
     *   skipped their deactivation): the events above it are popped too and released (counted as unwound), then
     *   {@code event};</li>
     *   <li>{@code event} not on the stack (deactivated twice, or on another thread): nothing changes, counted as a
     *   mismatch.</li>
     * </ul>
     * Beyond {@value ActiveStack#MAX_DEPTH} nested activations, activations are counted but not stored; the innermost
     * deactivations consume those first.
     */
    public void deactivate(AbstractSpan event) {
        if (event == null) {
            return;
        }
        ActiveStack stack = activeStacks.get();
        if (stack == null) {
            deactivationMismatches.incrementAndGet();
            return;
        }
        if (stack.popOverflow()) {
            return;
        }
        int index = stack.indexOf(event);
        if (index < 0) {
            deactivationMismatches.incrementAndGet();
            return;
        }
        while (stack.size() > index + 1) {
            unwoundActivations.incrementAndGet();
            stack.pop().decrementReferences();
        }
        stack.pop().decrementReferences();
        if (stack.isEmpty() && VirtualThreads.isCurrentVirtual()) {
            // a virtual thread keeps no stack while idle; it is re-created (a few dozen bytes) on its next activation
            activeStacks.remove();
        }
    }

    /** The event active on this thread, or null. */
    public AbstractSpan active() {
        ActiveStack stack = activeStacks.get();
        return stack == null ? null : stack.top();
    }

    /** The transaction of the event active on this thread, or null. */
    public Transaction currentTransaction() {
        AbstractSpan active = active();
        return active == null ? null : active.transaction();
    }

    /** Activations on this thread's stack (diagnostics and tests). */
    public int activeDepth() {
        ActiveStack stack = activeStacks.get();
        return stack == null ? 0 : stack.size();
    }

    // ---------------------------------------------------------------- errors

    /** {@link #captureException(Throwable, AbstractSpan, boolean)} of an unhandled exception. */
    public boolean captureException(Throwable exception, AbstractSpan parent) {
        return captureException(exception, parent, false);
    }

    /**
     * Reports {@code exception} as an error event, child of {@code parent} (or of the active event when null). The
     * error copies the ids, transaction name, type and sampled flag it needs and refers to nothing pooled afterwards.
     *
     * @return false when {@code exception} is null or the reporter dropped the error
     */
    public boolean captureException(Throwable exception, AbstractSpan parent, boolean handled) {
        if (exception == null) {
            return false;
        }
        if (parent == null) {
            parent = active();
        }
        ErrorEvent error = errorPool.acquire();
        if (error.referenceCount() != 0) {
            poolConflicts.incrementAndGet();
            error = new ErrorEvent(this);
        }
        error.initReferences();
        Transaction t = parent == null ? null : parent.transaction();
        long timestamp = t != null
                ? t.timestampMicros + (System.nanoTime() - t.startNanos) / 1000L
                : System.currentTimeMillis() * 1000L;
        error.set(nonZeroRandom(), nonZeroRandom(), timestamp, exception, handled, stackTraceLimit);
        error.copyParent(parent);
        try {
            return reporter.report(error);
        } catch (Throwable e) {
            reporterFailures.incrementAndGet();
            return false;
        }
    }

    // ---------------------------------------------------------------- hand-off and recycling

    void handOff(Transaction t) {
        try {
            reporter.report(t);
        } catch (Throwable e) {
            reporterFailures.incrementAndGet();
        }
    }

    void handOff(Span s) {
        try {
            reporter.report(s);
        } catch (Throwable e) {
            reporterFailures.incrementAndGet();
        }
    }

    void release(Transaction t) {
        transactionPool.release(t);
    }

    void release(Span s) {
        spanPool.release(s);
    }

    void release(ErrorEvent e) {
        errorPool.release(e);
    }

    /** A random id that is never 0 (0 means "none"); per-thread random state, no shared contention. */
    static long nonZeroRandom() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long id;
        do {
            id = random.nextLong();
        } while (id == 0);
        return id;
    }

    // ---------------------------------------------------------------- configuration and diagnostics

    /** {@code transaction_sample_rate} rounded to 4 decimals. */
    public double sampleRate() {
        return sampleRate;
    }

    public int maxSpans() {
        return maxSpans;
    }

    public int stackTraceLimit() {
        return stackTraceLimit;
    }

    /** The {@code sanitize_field_names} rule every URL of this tracer's events is read through. */
    public UrlSanitizer urlSanitizer() {
        return urlSanitizer;
    }

    /** The {@code object_pool} strategy named in the configuration. */
    public String poolStrategy() {
        return poolStrategy;
    }

    public ObjectPool<Transaction> transactionPool() {
        return transactionPool;
    }

    public ObjectPool<Span> spanPool() {
        return spanPool;
    }

    public ObjectPool<ErrorEvent> errorPool() {
        return errorPool;
    }

    /** Hand-offs where the reporter threw (a reporter defect; the event may be lost). */
    public long reporterFailures() {
        return reporterFailures.get();
    }

    /** Objects a pool handed out while still referenced (a double release elsewhere); they were not reused. */
    public long poolConflicts() {
        return poolConflicts.get();
    }

    /** Deactivations of events not on the calling thread's stack. */
    public long deactivationMismatches() {
        return deactivationMismatches.get();
    }

    /** Activations released because an event below them was deactivated first. */
    public long unwoundActivations() {
        return unwoundActivations.get();
    }
}
