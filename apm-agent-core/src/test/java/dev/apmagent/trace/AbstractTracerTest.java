package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import dev.apmagent.config.Config;
import dev.apmagent.pool.BookkeepingObjectPoolFactory;
import dev.apmagent.pool.ObjectPools;

/**
 * Base of tracer tests: a tracer over bookkeeping pools and a {@link ListReporter}. After each test the reporter
 * releases what it holds and every pooled object must be back exactly once, the active stack empty.
 */
abstract class AbstractTracerTest {

    protected ListReporter reporter;
    protected BookkeepingObjectPoolFactory pools;
    protected Tracer tracer;

    /** Parsed option values by key; override to configure the tracer. */
    protected Map<String, Object> options() {
        return Collections.emptyMap();
    }

    @BeforeEach
    final void createTracer() {
        reporter = new ListReporter();
        pools = BookkeepingObjectPoolFactory.of(String.valueOf(optionsOrDefault("object_pool", ObjectPools.THREAD_LOCAL)));
        tracer = new Tracer(Config.ofParsed(options()), reporter, pools);
    }

    private Object optionsOrDefault(String key, Object fallback) {
        Object value = options().get(key);
        return value != null ? value : fallback;
    }

    /** Replaces the tracer (same reporter, new bookkeeping pools) with one configured by {@code options}. */
    protected Tracer newTracer(Map<String, Object> options) {
        checkPools();
        reporter = new ListReporter();
        pools = BookkeepingObjectPoolFactory.of(String.valueOf(options.getOrDefault("object_pool", ObjectPools.THREAD_LOCAL)));
        tracer = new Tracer(Config.ofParsed(options), reporter, pools);
        return tracer;
    }

    @AfterEach
    final void checkPools() {
        assertEquals(0, tracer.activeDepth(), "active stack of the test thread is not empty");
        reporter.clear();
        pools.assertAllReturned();
    }
}
