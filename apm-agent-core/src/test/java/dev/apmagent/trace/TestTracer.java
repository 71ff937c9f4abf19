package dev.apmagent.trace;

import java.util.Collections;
import java.util.Map;

import dev.apmagent.config.Config;
import dev.apmagent.pool.BookkeepingObjectPoolFactory;
import dev.apmagent.pool.ObjectPools;

/**
 * A tracer for tests of any module (core's test-jar): bookkeeping pools and a {@link ListReporter}.
 * {@link #verifyAndReset()} (call it after each test) releases what the reporter holds and fails when the calling
 * thread's active stack is not empty or a pooled object was not returned exactly once.
 * <pre>
 * private final TestTracer testTracer = TestTracer.create();
 * &#64;AfterEach void verify() { testTracer.verifyAndReset(); }
 * </pre>
 */
public final class TestTracer {

    private final Tracer tracer;
    private final ListReporter reporter;
    private final BookkeepingObjectPoolFactory pools;

    private TestTracer(Map<String, Object> options) {
        Object strategy = options.get("object_pool");
        this.reporter = new ListReporter();
        this.pools = BookkeepingObjectPoolFactory.of(strategy != null ? strategy.toString() : ObjectPools.THREAD_LOCAL);
        this.tracer = new Tracer(Config.ofParsed(options), reporter, pools);
    }

    /** Every option at its default. */
    public static TestTracer create() {
        return new TestTracer(Collections.<String, Object>emptyMap());
    }

    /** Options by key, already parsed (e.g. {@code "transaction_sample_rate" -> 0.5}). */
    public static TestTracer create(Map<String, Object> options) {
        return new TestTracer(options);
    }

    public Tracer tracer() {
        return tracer;
    }

    public ListReporter reporter() {
        return reporter;
    }

    public BookkeepingObjectPoolFactory pools() {
        return pools;
    }

    /** Releases the reporter's events, then checks the active stack is empty and every object went back once. */
    public void verifyAndReset() {
        int depth = tracer.activeDepth();
        reporter.clear();
        if (depth != 0) {
            throw new AssertionError("active stack of the test thread is not empty: " + depth + " event(s) active");
        }
        pools.assertAllReturned();
    }
}
