package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.apmagent.pool.BookkeepingObjectPool;

class ReferenceCountingTest extends AbstractTracerTest {

    @Test
    void transactionWithARunningChildSpanIsNotRecycled() {
        Transaction t = tracer.startRootTransaction();
        t.setName("GET /");
        Span s = tracer.createSpan(t);
        t.end();
        reporter.clear(); // reporter done with the transaction
        assertTrue(pools.isInUse(t), "the running span still holds its transaction");
        assertEquals("GET /", t.name().toString());
        assertEquals(t.traceContext().id(), s.transactionId());
        s.end();
        assertTrue(pools.isInUse(t), "the reported span still holds its transaction");
        reporter.clear();
        assertFalse(pools.isInUse(s));
        assertFalse(pools.isInUse(t), "last child recycled: transaction recycled");
    }

    @Test
    void grandchildHoldsTheChainUpToTheTransaction() {
        Transaction t = tracer.startRootTransaction();
        Span child = tracer.createSpan(t);
        Span grandchild = tracer.createSpan(child);
        child.end();
        t.end();
        reporter.clear();
        assertTrue(pools.isInUse(child));
        assertTrue(pools.isInUse(t));
        grandchild.end();
        reporter.clear();
        assertFalse(pools.isInUse(t));
    }

    @Test
    void recycledEventsAreFullyReset() {
        Transaction t = tracer.startTransaction(1, 2, 3, 1, 0.5, "es=s:0.5");
        fill(t);
        tracer.activate(t);
        Span s = tracer.createSpan();
        fill(s);
        tracer.captureException(new IllegalStateException("boom"), s, true);
        ErrorEvent e = reporter.onlyError();
        e.setCulprit("Foo.bar(Foo.java:1)");
        tracer.deactivate(t);
        s.end(s.startNanos() + 7);
        t.end(t.startNanos() + 9);
        t.setSpanCounts(3, 4);

        // the fill must reach every field, or this test could not catch a field that reset() forgets (the URL
        // sanitizer, like the tracer, is the tracer's configuration and stays; the buffers KeyValues copies header
        // bytes into, and its views of them, stay with the pooled event by design)
        assertEquals(Collections.emptyList(), FieldState.equalities(t, new Transaction(tracer), "tracer", "sanitizer", "copied", "copiedViews"));
        assertEquals(Collections.emptyList(), FieldState.equalities(s, new Span(tracer), "tracer", "sanitizer", "copied", "copiedViews"));
        assertEquals(Collections.emptyList(), FieldState.equalities(e, new ErrorEvent(tracer), "tracer", "sanitizer", "copied", "copiedViews"));

        reporter.clear();
        assertFalse(pools.isInUse(t) || pools.isInUse(s) || pools.isInUse(e));
        assertEquals(Collections.emptyList(), FieldState.differences(t, new Transaction(tracer), "tracer", "sanitizer", "copied", "copiedViews"));
        assertEquals(Collections.emptyList(), FieldState.differences(s, new Span(tracer), "tracer", "sanitizer", "copied", "copiedViews"));
        assertEquals(Collections.emptyList(), FieldState.differences(e, new ErrorEvent(tracer), "tracer", "sanitizer", "copied", "copiedViews"));
    }

    private static void fill(Transaction t) {
        t.setName("GET /users/{id}");
        t.setType("request");
        t.setResult("HTTP 2xx");
        t.setOutcome(Outcome.SUCCESS);
        t.setFramework("Servlet API", "4.0");
        Request request = t.context().request();
        request.setMethod("MADEUPMETHODLONGERTHANTHIRTYTWOCHARACTERS"); // copied, cut, into the request's builder
        request.setHttpVersion("1.1");
        request.setRemoteAddress("10.0.0.1");
        request.url().set("http", "example.com", 8080, "/users/1;jsessionid=x", "a=b&password=p"); // redacted copies
        request.url().full();
        request.headers().add("Accept", "*/*");
        byte[] raw = "gzip".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        request.headers().addLatin1("accept-encoding", raw, 0, raw.length); // copied into the list's own buffer
        request.cookies().add("session", "[REDACTED]");
        request.cookies().addLatin1("theme", raw, 0, raw.length);
        Response response = t.context().response();
        response.setStatusCode(200);
        response.setFinished(true, true);
        response.headers().add("Content-Type", "text/plain");
        response.headers().addLatin1("X-Raw", raw, 0, raw.length);
    }

    private static void fill(Span s) {
        s.setName("SELECT FROM users");
        s.setType("db", "h2", "query");
        s.setExit(true);
        s.setOutcome(Outcome.FAILURE);
        Db db = s.context().db();
        db.setInstance("test");
        db.setStatement("SELECT * FROM users");
        db.setType("sql");
        db.setUser("sa");
        db.setRowsAffected(3);
        s.context().destination().setAddress("localhost", 5432);
        s.context().destination().setServiceResource("h2");
        s.context().serviceTarget().nameBuilder("http").append("x:81");
        s.context().serviceTarget().set("h2", "test");
        s.context().http().setUrl("https", "x", 81, "/p", "q=1");
        s.context().http().url(); // the assembled parts
        s.context().http().setUrl("http://u:p@x/?token=t");
        s.context().http().url(); // the redacted copy
        s.context().http().setMethod("GET");
        s.context().http().setStatusCode(200);
    }

    @Test
    void doubleRecycleIsDetectedAndDoesNotReleaseTwice() {
        Transaction t = tracer.startRootTransaction();
        t.end();
        reporter.clear();
        assertFalse(pools.isInUse(t));
        long before = AbstractSpan.referenceUnderflows();
        t.decrementReferences(); // a second release by a buggy reporter
        assertEquals(before + 1, AbstractSpan.referenceUnderflows());
        assertEquals(0, t.referenceCount());
        // no second release reached the pool: the bookkeeping check in @AfterEach would fail otherwise
        for (BookkeepingObjectPool<?> pool : pools.pools()) {
            assertEquals(Collections.emptyList(), pool.errors());
        }

        tracer.captureException(new RuntimeException(), null);
        ErrorEvent e = reporter.onlyError();
        reporter.clear();
        e.decrementReferences();
        assertEquals(before + 2, AbstractSpan.referenceUnderflows());
    }

    @Test
    void bookkeepingPoolDetectsADoubleReleaseAndAnUnreturnedObject() {
        @SuppressWarnings("unchecked")
        BookkeepingObjectPool<Transaction> pool = (BookkeepingObjectPool<Transaction>) (BookkeepingObjectPool<?>) tracer.transactionPool();
        Transaction t = pool.acquire();
        pool.release(t);
        pool.release(t);
        List<String> errors = pool.errors();
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).contains("double recycle"), errors.get(0));
        pool.clearErrors();
        Transaction kept = pool.acquire();
        AssertionError missing = null;
        try {
            pool.assertAllReturned();
        } catch (AssertionError e) {
            missing = e;
        }
        assertTrue(missing != null && missing.getMessage().contains("never returned"));
        pool.release(kept);
    }
}
