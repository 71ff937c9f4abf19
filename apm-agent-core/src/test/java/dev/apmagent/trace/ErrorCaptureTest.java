package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ErrorCaptureTest extends AbstractTracerTest {

    @Override
    protected Map<String, Object> options() {
        return Collections.<String, Object>singletonMap("stack_trace_limit", 7);
    }

    @Test
    void errorCarriesIdsOfTheActiveSpanAndTransaction() {
        Transaction t = tracer.startRootTransaction();
        t.setName("GET /orders");
        t.setType("request");
        tracer.activate(t);
        Span s = tracer.createSpan();
        tracer.activate(s);
        RuntimeException boom = new RuntimeException("boom");
        assertTrue(tracer.captureException(boom, null));
        tracer.deactivate(s);
        tracer.deactivate(t);
        s.end();
        t.end();

        ErrorEvent e = reporter.onlyError();
        assertSame(boom, e.exception());
        assertFalse(e.handled());
        assertEquals(7, e.stackTraceLimit());
        assertTrue(e.idHigh() != 0 && e.idLow() != 0);
        assertEquals(t.traceContext().traceIdHigh(), e.traceIdHigh());
        assertEquals(t.traceContext().traceIdLow(), e.traceIdLow());
        assertEquals(s.traceContext().id(), e.parentId());
        assertEquals(t.traceContext().id(), e.transactionId());
        assertTrue(e.hasTransaction());
        assertTrue(e.transactionSampled());
        assertEquals("request", e.transactionType());
        assertEquals("GET /orders", e.transactionName().toString());
        assertEquals(t.timestampMicros() + (s.startNanos() - t.startNanos()) / 1000, s.timestampMicros());
        assertTrue(e.timestampMicros() >= s.timestampMicros());
        assertNull(e.culprit());
    }

    @Test
    void explicitParentWinsOverTheActiveEvent() {
        Transaction t = tracer.startRootTransaction();
        Transaction other = tracer.startRootTransaction();
        tracer.activate(t);
        tracer.captureException(new Error(), other, true);
        tracer.deactivate(t);
        ErrorEvent e = reporter.onlyError();
        assertEquals(other.traceContext().id(), e.parentId());
        assertEquals(other.traceContext().id(), e.transactionId());
        assertTrue(e.handled());
        t.end();
        other.end();
    }

    @Test
    void errorWithoutTransactionHasNoIds() {
        long before = System.currentTimeMillis() * 1000;
        assertTrue(tracer.captureException(new IllegalArgumentException(), null));
        ErrorEvent e = reporter.onlyError();
        assertEquals(0, e.traceIdHigh() | e.traceIdLow() | e.parentId() | e.transactionId());
        assertFalse(e.hasTransaction());
        assertNull(e.transactionType());
        assertEquals(0, e.transactionName().length());
        assertTrue(e.timestampMicros() >= before);
        assertNotEquals(0, e.idLow());
        assertFalse(tracer.captureException(null, null));
    }

    @Test
    void errorReferencesNothingPooledSoItsTransactionIsRecycledAndReusedWhileTheErrorWaits() {
        Transaction t = tracer.startRootTransaction();
        t.setName("POST /pay");
        t.setType("request");
        tracer.captureException(new RuntimeException(), t);
        long transactionId = t.traceContext().id();
        long traceIdLow = t.traceContext().traceIdLow();
        ErrorEvent e = reporter.onlyError();
        assertEquals(1, t.referenceCount(), "capturing an error takes no reference on the transaction");
        t.end();
        reporter.release(t); // the reporter sent the transaction; the error is still queued
        assertFalse(pools.isInUse(t), "transaction recycled although its error is not yet reported");
        assertTrue(pools.isInUse(e));

        Transaction reused = tracer.startRootTransaction();
        assertSame(t, reused, "the thread-local pool hands the last released object out first");
        reused.setName("GET /other");
        reused.setType("other");
        assertEquals("POST /pay", e.transactionName().toString());
        assertEquals("request", e.transactionType());
        assertEquals(transactionId, e.transactionId());
        assertEquals(traceIdLow, e.traceIdLow());
        reused.end();
    }

    @Test
    void unsampledTransactionStillReportsErrors() {
        newTracer(Collections.<String, Object>singletonMap("transaction_sample_rate", 0.0));
        Transaction t = tracer.startRootTransaction();
        tracer.captureException(new RuntimeException(), t);
        ErrorEvent e = reporter.onlyError();
        assertFalse(e.transactionSampled());
        assertEquals(t.traceContext().id(), e.transactionId());
        t.end();
    }
}
