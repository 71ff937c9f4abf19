package dev.apmagent.trace;

import java.util.Collections;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import dev.apmagent.pool.BookkeepingObjectPoolFactory;

/**
 * Base of tracer tests: a {@link TestTracer} (bookkeeping pools, {@link ListReporter}). After each test the reporter
 * releases what it holds and every pooled object must be back exactly once, the active stack empty.
 */
abstract class AbstractTracerTest {

    protected TestTracer testTracer;
    protected ListReporter reporter;
    protected BookkeepingObjectPoolFactory pools;
    protected Tracer tracer;

    /** Parsed option values by key; override to configure the tracer. */
    protected Map<String, Object> options() {
        return Collections.emptyMap();
    }

    @BeforeEach
    final void createTracer() {
        use(TestTracer.create(options()));
    }

    /** Verifies the current tracer and replaces it with one configured by {@code options}. */
    protected Tracer newTracer(Map<String, Object> options) {
        checkPools();
        use(TestTracer.create(options));
        return tracer;
    }

    private void use(TestTracer next) {
        testTracer = next;
        reporter = next.reporter();
        pools = next.pools();
        tracer = next.tracer();
    }

    @AfterEach
    final void checkPools() {
        testTracer.verifyAndReset();
        // a test may have swapped in its own bookkeeping pools
        pools.assertAllReturned();
    }
}
