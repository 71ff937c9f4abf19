package dev.apmagent.plugin;

import dev.apmagent.config.Config;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.TestTracer;
import dev.apmagent.trace.TraceContext;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link HttpClientExits} driven as an HTTP client plugin drives it, with a request type of the test's own. */
class HttpClientExitsTest {

    /** A request as a client library holds it: URL parts and a header map (lower-case names). */
    static final class Request {
        final String method;
        final String scheme;
        final String host;
        final int port;
        final String path;
        final String query;
        final Map<String, String> headers = new LinkedHashMap<>();

        Request(String method, String scheme, String host, int port, String path, String query) {
            this.method = method;
            this.scheme = scheme;
            this.host = host;
            this.port = port;
            this.path = path;
            this.query = query;
        }
    }

    static final HttpClientRequest<Request> REQUESTS = new HttpClientRequest<Request>() {
        @Override
        public String method(Request r) {
            return r.method;
        }

        @Override
        public String scheme(Request r) {
            return r.scheme;
        }

        @Override
        public String host(Request r) {
            return r.host;
        }

        @Override
        public int port(Request r) {
            return r.port;
        }

        @Override
        public String path(Request r) {
            return r.path;
        }

        @Override
        public String query(Request r) {
            return r.query;
        }

        @Override
        public String header(Request r, String name) {
            return r.headers.get(name);
        }

        @Override
        public void set(Request r, String name, String value) {
            r.headers.put(name, value);
        }
    };

    private final PluginHealth health = PluginHealth.of("http-client-exits-test");
    private final HttpClientExits<Request> exits = new HttpClientExits<>(REQUESTS, health);
    private TestTracer testTracer = start(Collections.<String, Object>emptyMap());
    private Tracer tracer = testTracer.tracer();

    private static TestTracer start(Map<String, Object> options) {
        TestTracer t = TestTracer.create(options);
        GlobalTracer.set(t.tracer(), Config.ofParsed(options));
        return t;
    }

    private void restart(Map<String, Object> options) {
        testTracer.verifyAndReset();
        testTracer = start(options);
        tracer = testTracer.tracer();
    }

    @AfterEach
    void verify() {
        PendingSpans.scan(System.nanoTime() + 3_600_000_000_000L); // nothing of a test may stay pending
        testTracer.verifyAndReset();
        GlobalTracer.set(null, null);
    }

    private Transaction startTransaction() {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        return t;
    }

    private void end(Transaction t) {
        tracer.deactivate(t);
        t.end();
    }

    private static Request get(String host, int port, String path, String query) {
        return new Request("GET", "http", host, port, path, query);
    }

    private static String traceparentOf(TraceContext c) {
        char[] chars = new char[55];
        c.writeTraceparent(chars, 0);
        return new String(chars);
    }

    @Test
    void nothingActiveMeansNothingDoneAndNothingAllocated() {
        Request request = get("example.com", -1, "/", null);
        assertNull(exits.enter(request));
        assertTrue(request.headers.isEmpty());
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long allocated = 0;
        for (int round = 0; round < 2; round++) {
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 100_000; i++) {
                HttpClientCall call = exits.enter(request);
                exits.exit(call, 200, null);
            }
            allocated = mx.getThreadAllocatedBytes(tid) - before;
        }
        assertTrue(allocated < 1024, "allocated " + allocated + " bytes over 100k untraced calls");
        assertTrue(testTracer.reporter().spans().isEmpty());
    }

    @Test
    void outermostCallRecordsTheExitSpanAndInjectsItsContext() {
        Transaction t = startTransaction();
        Request request = new Request("GET", "http", "example.com", 8080, "/orders/7", "page=2&token=abc");
        HttpClientCall call = exits.enter(request);
        assertNotNull(call);
        assertFalse(call.isNested());
        Span span = call.span();
        assertSame(span, tracer.active(), "the span is active while the client works");
        assertEquals(traceparentOf(span.traceContext()), request.headers.get("traceparent"));
        assertEquals(request.headers.get("traceparent"), request.headers.get("elastic-apm-traceparent"),
                "use_elastic_traceparent_header is on by default");
        assertEquals("es=s:1", request.headers.get("tracestate"));
        exits.exit(call, 200, null);
        end(t);

        Span reported = testTracer.reporter().spans().get(0);
        assertEquals("GET example.com", reported.name().toString());
        assertEquals("external", reported.type());
        assertEquals("http", reported.subtype());
        assertTrue(reported.isExit());
        assertEquals(Outcome.SUCCESS, reported.outcome());
        assertEquals("GET", reported.context().http().method().toString());
        assertEquals("http://example.com:8080/orders/7?page=2&token=[REDACTED]", reported.context().http().url().toString());
        assertEquals(200, reported.context().http().statusCode());
        assertEquals("example.com", reported.context().destination().address().toString());
        assertEquals(8080, reported.context().destination().port());
        assertEquals("http", reported.context().serviceTarget().type().toString());
        assertEquals("example.com:8080", reported.context().serviceTarget().name().toString());
        assertEquals("example.com:8080", reported.context().destination().serviceResource().toString());
        assertEquals(t.traceContext().id(), reported.traceContext().parentId());
    }

    @Test
    void defaultPortsAndIpv6HostsAndMadeUpMethods() {
        Transaction t = startTransaction();
        HttpClientCall call = exits.enter(new Request("PROPFIND", "https", "::1", -1, null, null));
        exits.exit(call, 207, null);
        call = exits.enter(new Request(null, null, "example.com", 80, "/a?b=c", null));
        exits.exit(call, 204, null);
        end(t);
        Span first = testTracer.reporter().spans().get(0);
        assertEquals("OTHER ::1", first.name().toString());
        assertEquals("PROPFIND", first.context().http().method().toString());
        assertEquals("https://[::1]/", first.context().http().url().toString());
        assertEquals(443, first.context().destination().port());
        assertEquals("[::1]:443", first.context().serviceTarget().name().toString());
        Span second = testTracer.reporter().spans().get(1);
        assertEquals("GET example.com", second.name().toString());
        assertEquals("http://example.com/a?b=c", second.context().http().url().toString());
        assertEquals("example.com:80", second.context().serviceTarget().name().toString());
    }

    @Test
    void statusCodesOfFourAndFiveHundredAreFailures() {
        Transaction t = startTransaction();
        int[] codes = {200, 302, 404, 500};
        for (int code : codes) {
            exits.exit(exits.enter(get("h", -1, "/", null)), code, null);
        }
        end(t);
        assertEquals(Outcome.SUCCESS, testTracer.reporter().spans().get(0).outcome());
        assertEquals(Outcome.SUCCESS, testTracer.reporter().spans().get(1).outcome());
        assertEquals(Outcome.FAILURE, testTracer.reporter().spans().get(2).outcome());
        assertEquals(404, testTracer.reporter().spans().get(2).context().http().statusCode());
        assertEquals(Outcome.FAILURE, testTracer.reporter().spans().get(3).outcome());
        assertTrue(testTracer.reporter().errors().isEmpty(), "a status is no exception");
    }

    @Test
    void aThrownExceptionIsAFailureCapturedOnTheSpan() {
        Transaction t = startTransaction();
        HttpClientCall call = exits.enter(get("h", 1, "/", null));
        Span span = call.span();
        long spanId = span.traceContext().id();
        java.net.ConnectException refused = new java.net.ConnectException("Connection refused");
        exits.exit(call, -1, refused);
        end(t);
        Span reported = testTracer.reporter().spans().get(0);
        assertEquals(Outcome.FAILURE, reported.outcome());
        assertEquals(-1, reported.context().http().statusCode());
        assertSame(refused, testTracer.reporter().onlyError().exception());
        assertEquals(spanId, testTracer.reporter().onlyError().parentId());
    }

    @Test
    void aClientWrappingAnotherMakesOneSpanAndThePhysicalRequestCarriesItsContext() {
        Transaction t = startTransaction();
        Request outerRequest = get("svc", 8080, "/x", null);
        HttpClientCall outer = exits.enter(outerRequest);
        Span span = outer.span();
        outerRequest.headers.clear(); // an outer layer whose own request object never reaches the wire
        Request physical = get("svc", 8080, "/x", null);
        HttpClientCall inner = exits.enter(physical);
        assertSame(outer, inner);
        assertTrue(inner.isNested());
        assertEquals(traceparentOf(span.traceContext()), physical.headers.get("traceparent"),
                "the physical request carries the outer span's context");
        Request retry = get("svc", 8080, "/x", null);
        retry.headers.putAll(physical.headers);
        HttpClientCall again = exits.enter(retry);
        assertEquals(3, retry.headers.size(), "a request that carries the context gets nothing twice");
        exits.exit(again, 503, null);
        exits.exit(inner, 500, null);
        exits.exit(outer, 200, null);
        end(t);
        assertEquals(1, testTracer.reporter().spans().size(), "one span per logical request");
        assertEquals(200, testTracer.reporter().spans().get(0).context().http().statusCode(),
                "the outermost call's status: a nested call completes nothing");
    }

    @Test
    void aTraceparentSetByTheApplicationIsKept() {
        Transaction t = startTransaction();
        Request request = get("h", -1, "/", null);
        String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        request.headers.put("traceparent", own);
        HttpClientCall call = exits.enter(request);
        assertNotNull(call.span(), "the call is still recorded");
        assertEquals(Collections.singletonMap("traceparent", own), request.headers);
        exits.exit(call, 200, null);
        end(t);
    }

    @Test
    void underAnotherKindOfExitSpanNothingIsRecordedButTheContextTravels() {
        Transaction t = startTransaction();
        Span db = tracer.createSpan(t);
        db.setExit(true);
        db.setType("db", "h2", "query");
        tracer.activate(db);
        Request request = get("h", -1, "/", null);
        assertNull(exits.enter(request));
        assertEquals(traceparentOf(db.traceContext()), request.headers.get("traceparent"));
        tracer.deactivate(db);
        db.end();
        end(t);
        assertEquals(1, testTracer.reporter().spans().size());
    }

    @Test
    void withoutASpanTheParentsContextTravels() {
        restart(Collections.<String, Object>singletonMap("transaction_sample_rate", 0.0));
        Transaction t = startTransaction();
        Request request = get("h", -1, "/", null);
        HttpClientCall call = exits.enter(request);
        assertNull(call.span());
        assertEquals(traceparentOf(t.traceContext()), request.headers.get("traceparent"));
        assertTrue(request.headers.get("traceparent").endsWith("-00"), "not sampled");
        exits.exit(call, 200, null);
        end(t);
        assertTrue(testTracer.reporter().spans().isEmpty());
    }

    @Test
    void theElasticHeaderFollowsTheOption() {
        restart(Collections.<String, Object>singletonMap("use_elastic_traceparent_header", false));
        Transaction t = startTransaction();
        Request request = get("h", -1, "/", null);
        exits.exit(exits.enter(request), 200, null);
        end(t);
        assertNotNull(request.headers.get("traceparent"));
        assertFalse(request.headers.containsKey("elastic-apm-traceparent"));
    }

    @Test
    void anAsynchronousRequestEndsOnTheCallbackThreadOnce() throws Exception {
        Transaction t = startTransaction();
        HttpClientCall call = exits.enter(get("h", -1, "/", null));
        HttpClientExits.PendingHttpExit pending = exits.exitPending(call, 60_000_000_000L, false);
        assertNotNull(pending);
        assertSame(t, tracer.active(), "the span is no longer active on the sending thread");
        end(t);
        boolean[] won = new boolean[2];
        Thread callback = new Thread(() -> won[0] = pending.complete(500, null));
        callback.start();
        callback.join();
        won[1] = pending.complete(200, null);
        assertTrue(won[0]);
        assertFalse(won[1], "the second completion finds nothing");
        Span reported = testTracer.reporter().spans().get(0);
        assertEquals(500, reported.context().http().statusCode());
        assertEquals(Outcome.FAILURE, reported.outcome());
    }

    @Test
    void aPendingRequestNobodyFinishesIsEndedByTheScanAtItsLastActivity() throws Exception {
        Transaction t = startTransaction();
        HttpClientCall call = exits.enter(get("h", -1, "/", null));
        HttpClientExits.PendingHttpExit pending = exits.exitPending(call, 1_000_000_000L, true);
        long last = pending.lastActivityNanos();
        end(t);
        PendingSpans.scan(System.nanoTime()); // before the deadline: nothing
        assertFalse(pending.isDone());
        PendingSpans.scan(System.nanoTime() + 2_000_000_000L);
        assertTrue(pending.isDone());
        assertFalse(pending.complete(200, null), "a late response finds the span ended");
        Span reported = testTracer.reporter().spans().get(0);
        assertEquals(Outcome.UNKNOWN, reported.outcome());
        assertTrue(reported.durationNanos() <= last - reported.startNanos() + 1, "ended at the last activity");
    }

    @Test
    void aNestedCallHasNothingPending() {
        Transaction t = startTransaction();
        HttpClientCall outer = exits.enter(get("h", -1, "/", null));
        HttpClientCall inner = exits.enter(get("h", -1, "/", null));
        assertNull(exits.exitPending(inner, 1, true));
        exits.exit(outer, 200, null);
        end(t);
        assertEquals(1, testTracer.reporter().spans().size());
    }

    @Test
    void aFailingReaderIsCountedAndTheCallUntraced() {
        Transaction t = startTransaction();
        HttpClientExits<Request> broken = new HttpClientExits<>(new HttpClientRequest<Request>() {
            @Override public String method(Request r) { throw new IllegalStateException("broken"); }
            @Override public String scheme(Request r) { return null; }
            @Override public String host(Request r) { return null; }
            @Override public int port(Request r) { return -1; }
            @Override public String path(Request r) { return null; }
            @Override public String query(Request r) { return null; }
            @Override public String header(Request r, String name) { return null; }
            @Override public void set(Request r, String name, String value) { }
        }, health);
        long failures = health.failures();
        assertNull(broken.enter(get("h", -1, "/", null)));
        assertEquals(failures + 1, health.failures());
        assertSame(t, tracer.active());
        // the thread's next call is outermost again
        HttpClientCall call = exits.enter(get("h", -1, "/", null));
        assertFalse(call.isNested());
        exits.exit(call, 200, null);
        end(t);
        assertEquals(2, testTracer.reporter().spans().size(), "the failed call's span was ended (as far as described), not leaked");
    }
}
