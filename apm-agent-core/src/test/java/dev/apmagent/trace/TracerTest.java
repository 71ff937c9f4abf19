package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.apmagent.config.Config;
import dev.apmagent.pool.ThreadLocalObjectPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TracerTest extends AbstractTracerTest {

    private static Map<String, Object> options(Object... keyValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    @Test
    void rootTransactionHasNewNonZeroIdsAndStartsNow() {
        long before = System.currentTimeMillis() * 1000;
        Transaction t = tracer.startRootTransaction();
        long after = System.currentTimeMillis() * 1000;
        TraceContext tc = t.traceContext();
        assertNotEquals(0, tc.traceIdHigh());
        assertNotEquals(0, tc.traceIdLow());
        assertNotEquals(0, tc.id());
        assertEquals(0, tc.parentId());
        assertTrue(t.isSampled());
        assertEquals(1.0, tc.sampleRate());
        assertEquals("es=s:1", tc.tracestate().toString());
        assertTrue(t.timestampMicros() >= before && t.timestampMicros() <= after);
        assertSame(t, t.transaction());
        t.setName("GET /users");
        t.setType("request");
        t.setResult("HTTP 2xx");
        t.setOutcome(Outcome.SUCCESS);
        t.end(t.startNanos() + 12_345_000);
        Transaction reported = reporter.onlyTransaction();
        assertSame(t, reported);
        assertEquals(12_345_000, reported.durationNanos());
        assertEquals("GET /users", reported.name().toString());
        assertEquals("HTTP 2xx", reported.result());
        assertEquals(Outcome.SUCCESS, reported.outcome());
    }

    @Test
    void idsDoNotRepeat() {
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            Transaction t = tracer.startRootTransaction();
            assertTrue(ids.add(t.traceContext().id()));
            assertTrue(ids.add(t.traceContext().traceIdLow()));
            t.end();
            reporter.clear();
        }
    }

    @Test
    void spansAreChildrenOfTheActiveEventWithTimestampsFromTheTransactionClock() {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        Span outer = tracer.createSpan();
        tracer.activate(outer);
        Span inner = tracer.createSpan();
        tracer.deactivate(outer);
        tracer.deactivate(t);

        assertEquals(t.traceContext().id(), outer.traceContext().parentId());
        assertEquals(outer.traceContext().id(), inner.traceContext().parentId());
        for (Span s : new Span[] {outer, inner}) {
            assertEquals(t.traceContext().traceIdHigh(), s.traceContext().traceIdHigh());
            assertEquals(t.traceContext().traceIdLow(), s.traceContext().traceIdLow());
            assertEquals(t.traceContext().id(), s.transactionId());
            assertSame(t, s.transaction());
            assertTrue(s.isSampled());
            assertEquals(t.timestampMicros() + (s.startNanos() - t.startNanos()) / 1000, s.timestampMicros());
        }
        assertSame(outer, inner.parent());
        assertTrue(inner.timestampMicros() >= outer.timestampMicros());
        inner.end(inner.startNanos() + 1_000);
        outer.end(outer.startNanos() + 2_000);
        t.end();
        assertEquals(2, t.spanCountStarted());
        assertEquals(0, t.spanCountDropped());
        assertEquals(1_000, inner.durationNanos());
        assertEquals(2, reporter.spans().size());
    }

    @Test
    void createSpanWithoutActiveEventReturnsNull() {
        assertNull(tracer.createSpan());
        assertNull(tracer.createSpan(null));
        assertNull(tracer.active());
        assertNull(tracer.currentTransaction());
    }

    @Test
    void continuesRemoteParent() {
        Transaction t = tracer.startTransaction(0x0af7651916cd43ddL, 0x8448eb211c80319cL, 0xb7ad6b7169203331L, 1, 0.25,
                "es=s:0.25");
        TraceContext tc = t.traceContext();
        assertEquals(0x0af7651916cd43ddL, tc.traceIdHigh());
        assertEquals(0x8448eb211c80319cL, tc.traceIdLow());
        assertEquals(0xb7ad6b7169203331L, tc.parentId());
        assertNotEquals(0, tc.id());
        assertNotEquals(tc.parentId(), tc.id());
        assertTrue(t.isSampled());
        assertEquals(0.25, tc.sampleRate());
        assertEquals("es=s:0.25", tc.tracestate());
        Span s = tracer.createSpan(t);
        assertEquals("es=s:0.25", s.traceContext().tracestate());
        s.end();
        t.end();
    }

    @Test
    void remoteUnsampledParentIsNotSampledEvenAtRateOne() {
        Transaction t = tracer.startTransaction(1, 2, 3, 0, Double.NaN, null);
        assertFalse(t.isSampled());
        assertFalse(t.traceContext().hasSampleRate());
        assertNull(tracer.createSpan(t));
        t.end();
    }

    @ParameterizedTest
    @CsvSource({"0, 0, 3", "0, 0, 0", "1, 2, 0"})
    void invalidRemoteParentStartsANewTrace(long high, long low, long parentId) {
        Transaction t = tracer.startTransaction(high, low, parentId, 1, 0.5, "x");
        assertEquals(0, t.traceContext().parentId());
        assertNotEquals(0, t.traceContext().traceIdLow());
        assertEquals("es=s:1", t.traceContext().tracestate().toString(), "the remote tracestate is not propagated");
        t.end();
    }

    @ParameterizedTest
    @CsvSource({
        "0.0,      0.0",
        "1.0,      1.0",
        "0.5,      0.5",
        "0.12345,  0.1235",
        "0.00004,  0.0",
        "0.00005,  0.0001",
        "0.99999,  1.0",
    })
    void sampleRateIsRoundedToFourDecimals(double configured, double expected) {
        newTracer(options("transaction_sample_rate", configured));
        assertEquals(expected, tracer.sampleRate());
    }

    @ParameterizedTest
    @CsvSource({"1.0, 1", "0.0, 0", "0.5, 0.5", "0.1235, 0.1235", "0.0001, 0.0001", "0.25, 0.25"})
    void rootTracestateCarriesTheRate(double rate, String expected) {
        assertEquals(expected, Tracer.formatSampleRate(rate));
        newTracer(options("transaction_sample_rate", rate));
        Transaction t = tracer.startRootTransaction();
        assertEquals(t.isSampled() ? "es=s:" + expected : "es=s:0", t.traceContext().tracestate().toString());
        t.end();
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.1, 0.5, 0.9})
    void samplingIsDecidedByTheTraceIdAndFollowsTheRate(double rate) {
        newTracer(options("transaction_sample_rate", rate));
        int sampled = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            Transaction t = tracer.startRootTransaction();
            boolean decision = t.isSampled();
            assertEquals(tracer.isSampled(t.traceContext().traceIdLow()), decision, "decision must follow the trace id");
            assertEquals(decision ? rate : 0.0, t.traceContext().sampleRate());
            if (decision) {
                sampled++;
            }
            t.end();
            reporter.clear();
        }
        // binomial: 6 standard deviations at n = 20,000 is below 0.022
        assertEquals(rate, sampled / (double) n, 0.022);
    }

    @Test
    void samplingThresholdsAtTheExtremes() {
        assertEquals(0, Tracer.sampleThreshold(0));
        assertEquals(Long.MAX_VALUE, Tracer.sampleThreshold(1));
        assertEquals(1L << 55, Tracer.sampleThreshold(0.5));
    }

    @Test
    void unsampledTransactionKeepsNameResultOutcomeDurationButNoSpansOrContext() {
        newTracer(options("transaction_sample_rate", 0.0));
        Transaction t = tracer.startRootTransaction();
        assertFalse(t.isSampled());
        assertEquals(0.0, t.traceContext().sampleRate());
        tracer.activate(t);
        assertNull(tracer.createSpan());
        assertNull(tracer.createSpan(t));
        tracer.deactivate(t);
        t.setName("GET /");
        t.setResult("HTTP 5xx");
        t.setOutcome(Outcome.FAILURE);
        t.context().request().setMethod("GET");
        t.context().response().setStatusCode(500);
        t.end(t.startNanos() + 5_000);
        Transaction reported = reporter.onlyTransaction();
        assertEquals("GET /", reported.name().toString());
        assertEquals("HTTP 5xx", reported.result());
        assertEquals(Outcome.FAILURE, reported.outcome());
        assertEquals(5_000, reported.durationNanos());
        assertFalse(reported.context().hasContent());
        assertEquals(0, reported.spanCountStarted());
        assertEquals(0, reported.spanCountDropped());
        assertTrue(reporter.spans().isEmpty());
    }

    @Test
    void spansBeyondMaxSpansAreCountedAsDropped() {
        newTracer(options("transaction_max_spans", 3));
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        int created = 0;
        for (int i = 0; i < 5; i++) {
            Span s = tracer.createSpan();
            if (s != null) {
                created++;
                s.end();
            }
        }
        tracer.deactivate(t);
        t.end();
        assertEquals(3, created);
        assertEquals(3, t.spanCountStarted());
        assertEquals(2, t.spanCountDropped());
        assertEquals(3, reporter.spans().size());
    }

    @Test
    void maxSpansZeroDropsEverySpan() {
        newTracer(options("transaction_max_spans", 0));
        Transaction t = tracer.startRootTransaction();
        assertNull(tracer.createSpan(t));
        t.end();
        assertEquals(0, t.spanCountStarted());
        assertEquals(1, t.spanCountDropped());
    }

    @Test
    void endingTwiceReportsOnce() {
        Transaction t = tracer.startRootTransaction();
        Span s = tracer.createSpan(t);
        s.end(s.startNanos() + 10);
        s.end(s.startNanos() + 20);
        t.end();
        t.end();
        assertEquals(1, reporter.transactions().size());
        List<Span> spans = reporter.spans();
        assertEquals(1, spans.size());
        assertEquals(10, spans.get(0).durationNanos());
    }

    @Test
    void namesAreTruncated() {
        Transaction t = tracer.startRootTransaction();
        StringBuilder longName = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            longName.append('n');
        }
        t.setName(longName);
        assertEquals(AbstractSpan.MAX_NAME_LENGTH, t.name().length());
        t.nameBuilder().append(longName);
        t.end();
        assertEquals(AbstractSpan.MAX_NAME_LENGTH, t.name().length());
    }

    @Test
    void droppedByTheReporterIsRecycledAtOnce() {
        reporter.setDropping(true);
        Transaction t = tracer.startRootTransaction();
        Span s = tracer.createSpan(t);
        s.end();
        assertFalse(pools.isInUse(s), "a dropped span goes straight back to the pool");
        assertTrue(pools.isInUse(t));
        t.end();
        assertFalse(pools.isInUse(t));
        assertFalse(tracer.captureException(new RuntimeException(), null));
    }

    @Test
    void readsConfiguration() {
        newTracer(options("transaction_max_spans", 7, "stack_trace_limit", 3, "object_pool", "queue",
                "transaction_sample_rate", 0.3));
        assertEquals(7, tracer.maxSpans());
        assertEquals(3, tracer.stackTraceLimit());
        assertEquals("queue", tracer.poolStrategy());
        assertEquals(0.3, tracer.sampleRate());
    }

    @ParameterizedTest
    @CsvSource({"thread_local, ThreadLocalObjectPool", "queue, QueueObjectPool", "none, AllocatingObjectPool"})
    void objectPoolOptionChoosesTheStrategy(String strategy, String poolClass) {
        Tracer t = new Tracer(Config.ofParsed(options("object_pool", strategy)), new ListReporter());
        assertEquals(poolClass, t.transactionPool().getClass().getSimpleName());
        assertEquals(poolClass, t.spanPool().getClass().getSimpleName());
        assertEquals(poolClass, t.errorPool().getClass().getSimpleName());
        assertEquals(ThreadLocalObjectPool.class,
                new Tracer(Config.defaults(), new ListReporter()).spanPool().getClass(), "default strategy");
    }
}
