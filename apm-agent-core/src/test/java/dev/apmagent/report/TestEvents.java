package dev.apmagent.report;

import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;

/** Stand-alone, fully populated events for serializer and pipeline tests. Each holds the one reference a reporter owns. */
final class TestEvents {

    static final long TRACE_HIGH = 0x0af7651916cd43ddL;
    static final long TRACE_LOW = 0x8448eb211c80319cL;
    static final long TX_ID = 0xb7ad6b7169203331L;
    static final long SPAN_ID = 0x00f067aa0ba902b7L;

    private TestEvents() {
    }

    /** An ended transaction with a full request/response context; {@code text} goes into every free-text field. */
    static Transaction transaction(CharSequence text) {
        Transaction t = new Transaction();
        t.traceContext().initRoot(TRACE_HIGH, TRACE_LOW, TX_ID, true, 0.5);
        t.setName(text);
        t.setType("request");
        t.setResult("HTTP 2xx");
        t.setOutcome(Outcome.SUCCESS);
        t.setSpanCounts(3, 1);
        t.setFramework("Servlet API", "4.0");
        t.setTiming(1_795_414_344_760_019L, 1_000_000L);
        t.context().request().setMethod("GET");
        t.context().request().setHttpVersion("1.1");
        t.context().request().setRemoteAddress("127.0.0.1");
        t.context().request().url().set("https", "example.com", 8443, "/search/" + text, "q=" + text);
        t.context().request().headers().add("user-agent", text);
        t.context().request().headers().add("accept", "text/html");
        t.context().request().headers().add("accept", "application/json");
        t.context().request().headers().add("x-\"odd\\name\n", "v");
        t.context().request().cookies().add("JSESSIONID", "[REDACTED]");
        t.context().response().setStatusCode(200);
        t.context().response().setFinished(true, true);
        t.context().response().headers().add("content-type", "application/json");
        endKeepingReference(t, 1_000_000L + 12_345_678L);
        return t;
    }

    static Transaction unsampledTransaction() {
        Transaction t = new Transaction();
        t.traceContext().initRoot(TRACE_HIGH, TRACE_LOW, TX_ID, false, 0.0);
        t.setName("GET /unsampled");
        t.setType("request");
        t.setTiming(1_795_414_344_760_019L, 0);
        endKeepingReference(t, 999L);
        return t;
    }

    /** An ended exit span with db, destination, service target and http context. */
    static Span span(CharSequence text) {
        Span s = new Span();
        s.traceContext().setTraceId(TRACE_HIGH, TRACE_LOW);
        s.traceContext().setId(SPAN_ID);
        s.traceContext().setParentId(TX_ID);
        s.traceContext().setSampled(true);
        s.traceContext().setSampleRate(1.0);
        s.setTransactionId(TX_ID);
        s.setName(text);
        s.setType("db", "postgresql", "query");
        s.setExit(true);
        s.setOutcome(Outcome.FAILURE);
        s.setTiming(1_795_414_344_761_000L, 5_000L);
        s.context().db().setInstance("orders");
        s.context().db().setStatement("SELECT * FROM t WHERE name = '" + text + "'");
        s.context().db().setType("sql");
        s.context().db().setUser(text);
        s.context().db().setRowsAffected(7);
        s.context().destination().setAddress("db.example.com", 5432);
        s.context().destination().setServiceResource("postgresql/orders");
        s.context().serviceTarget().set("postgresql", text);
        s.context().http().setUrl("http://example.com/" + text);
        s.context().http().setMethod("POST");
        s.context().http().setStatusCode(503);
        endKeepingReference(s, 5_000L + 1_500_000L);
        return s;
    }

    /** An error with a cause chain inside the transaction/span above. */
    static ErrorEvent error(CharSequence text) {
        ErrorEvent e = new ErrorEvent();
        IllegalStateException root = new IllegalStateException("root cause " + text);
        RuntimeException ex = new RuntimeException("failed: " + text, new IllegalArgumentException("middle", root));
        e.set(0x1234567890abcdefL, 0x0fedcba987654321L, 1_795_414_344_769_653L, ex, false, 50);
        Transaction parent = transaction("parent");
        e.copyParent(parent);
        parent.decrementReferences();
        return e;
    }

    /** An error captured outside any transaction. */
    static ErrorEvent errorWithoutTrace() {
        ErrorEvent e = new ErrorEvent();
        e.set(1L, 2L, 1_795_414_344_769_653L, new NullPointerException(), true, 5);
        return e;
    }

    private static void endKeepingReference(dev.apmagent.trace.AbstractSpan s, long endNanos) {
        // a stand-alone event is recycled when its last reference goes; keep one for the reporter
        s.incrementReferences();
        s.end(endNanos);
    }
}
