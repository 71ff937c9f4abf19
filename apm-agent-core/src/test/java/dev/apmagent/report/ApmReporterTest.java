package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.LogLevel;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole pipeline against a stand-in APM Server that answers 202, 400, 401, 429, 503, hangs, resets, reads slowly,
 * sends garbage or is down. Each test checks what was delivered, dropped and evicted, that the counts add up, that
 * every event's reference was released exactly once, and that report() never blocked.
 */
class ApmReporterTest {

    private static final long SLOW_REPORT_NANOS = 500_000_000L; // a blocked hand-off waits for server_timeout (seconds)
    private final IntakeSchemaValidator validator = IntakeSchemaValidator.fromSharedDir();
    private final List<Object> reported = new ArrayList<Object>();
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private FakeApmServer server;
    private ApmReporter reporter;
    private int slowReports;
    private long underflowsBefore;

    @BeforeEach
    void setUp() throws Exception {
        server = new FakeApmServer();
        AgentLog.setOutput(new PrintStream(logBytes, true, "UTF-8"));
        AgentLog.setMaxPerMinute(0); // the scenarios read the log: every line, whatever earlier tests logged
        underflowsBefore = AbstractSpan.referenceUnderflows();
    }

    @AfterEach
    void tearDown() {
        if (reporter != null) {
            reporter.close(2000);
        }
        server.close();
        AgentLog.setOutput(System.out);
        AgentLog.setMaxPerMinute(AgentLog.DEFAULT_MAX_PER_MINUTE);
    }

    private ApmReporter start(Map<String, Object> extra, List<String> urls) {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.SERVICE_NAME.key(), "reporter-test");
        options.put(CoreOptions.SERVER_URLS.key(), urls);
        options.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
        options.put(ReporterOptions.SERVER_TIMEOUT.key(), 1000L);
        options.put(ReporterOptions.API_REQUEST_TIME.key(), 200L);
        options.putAll(extra);
        PipelineSettings settings = PipelineSettings.from(Config.ofParsed(options));
        settings.backoffUnitMillis = 20;
        settings.errorLinesPerMinute = 0;
        settings.maxIdleParkMillis = 50;
        settings.fileFlushIntervalMillis = 50;
        reporter = new ApmReporter(Config.ofParsed(options), settings);
        reporter.start();
        return reporter;
    }

    private ApmReporter start(Map<String, Object> extra) {
        return start(extra, Arrays.asList(server.url()));
    }

    private ApmReporter start() {
        return start(new HashMap<String, Object>());
    }

    /** Reports transaction, span and error events in turn; counts report() calls that took longer than 500 ms (a GC pause is not a block). */
    private int reportEvents(int n) {
        int accepted = 0;
        for (int i = 0; i < n; i++) {
            Object event;
            boolean ok;
            long start = System.nanoTime();
            switch (i % 3) {
                case 0:
                    Transaction t = TestEvents.transaction("GET /orders/" + i);
                    event = t;
                    start = System.nanoTime();
                    ok = reporter.report(t);
                    break;
                case 1:
                    Span s = TestEvents.span("SELECT " + i);
                    event = s;
                    start = System.nanoTime();
                    ok = reporter.report(s);
                    break;
                default:
                    ErrorEvent e = TestEvents.error("error " + i);
                    event = e;
                    start = System.nanoTime();
                    ok = reporter.report(e);
            }
            if (System.nanoTime() - start > SLOW_REPORT_NANOS) {
                slowReports++;
            }
            reported.add(event);
            if (ok) {
                accepted++;
            }
        }
        return accepted;
    }

    private static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }

    /** After close: nothing is in flight, the counts add up, every reference was released exactly once. */
    private void assertSettled() {
        reporter.close(5000);
        ReporterStats s = reporter.stats();
        assertEquals(s.produced(), s.delivered() + s.dropped() + s.evicted() + s.buffered(), "counts add up: " + s);
        for (Object e : reported) {
            int refs = e instanceof AbstractSpan ? ((AbstractSpan) e).referenceCount() : ((ErrorEvent) e).referenceCount();
            assertEquals(0, refs, "reference released: " + e);
        }
        assertEquals(underflowsBefore, AbstractSpan.referenceUnderflows(), "no event released twice");
        assertEquals(0, slowReports, "report() calls over 500 ms");
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (reporter.pipeline().threadsAlive() && System.nanoTime() < deadline) {
            Thread.yield();
        }
        assertFalse(reporter.pipeline().threadsAlive(), "no thread left running after close");
    }


    private String log() {
        return new String(logBytes.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void deliversEverythingWithMetadataFirstAndValidLines() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.SECRET_TOKEN.key(), "s3cret");
        options.put(ReporterOptions.COMPRESS_REQUESTS.key(), "true");
        start(options);
        assertEquals(30, reportEvents(30));
        assertTrue(reporter.flush(10_000), "flush");
        ReporterStats s = reporter.stats();
        assertEquals(30, s.delivered());
        assertEquals(10, s.deliveredOf(EventTypes.TRANSACTION));
        assertEquals(10, s.deliveredOf(EventTypes.SPAN));
        assertEquals(10, s.deliveredOf(EventTypes.ERROR));
        assertEquals(0, s.dropped());
        assertEquals(30, server.eventLines().size());
        FakeApmServer.Received first = server.requests.get(0);
        assertTrue(first.headers.get(":request").startsWith("POST /intake/v2/events HTTP/1.1"));
        assertEquals("application/x-ndjson", first.headers.get("content-type"));
        assertEquals("deflate", first.headers.get("content-encoding"), "compressed when asked to, even on loopback");
        assertEquals("Bearer s3cret", first.headers.get("authorization"));
        assertTrue(first.headers.get("user-agent").startsWith("apm-agent-java/"), first.headers.get("user-agent"));
        assertEquals("chunked", first.headers.get("transfer-encoding"));
        assertEquals(0x78, first.rawBody[0] & 0xff, "a zlib stream");
        for (FakeApmServer.Received r : server.requests) {
            assertTrue(r.body.startsWith("{\"metadata\""), "metadata first in every request");
            validator.assertValidNdjson(r.body);
        }
        assertSettled();
        assertFalse(log().contains("s3cret"), "the secret is never logged");
    }

    @Test
    void apiKeyWinsOverSecretTokenAndLoopbackIsNotCompressedByDefault() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.SECRET_TOKEN.key(), "s3cret");
        options.put(CoreOptions.API_KEY.key(), "a2V5");
        start(options);
        reportEvents(3);
        assertTrue(reporter.flush(10_000));
        FakeApmServer.Received first = server.requests.get(0);
        assertEquals("ApiKey a2V5", first.headers.get("authorization"));
        assertEquals(null, first.headers.get("content-encoding"));
        validator.assertValidNdjson(first.body);
        assertSettled();
    }

    @Test
    void requestsAreCutByTimeAndByCompressedSize() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(ReporterOptions.API_REQUEST_TIME.key(), 100L);
        options.put(ReporterOptions.API_REQUEST_SIZE.key(), 4096L);
        start(options);
        reportEvents(60);
        waitUntil("all delivered", () -> reporter.stats().delivered() == 60);
        assertTrue(server.requests.size() >= 3, "several requests: " + server.requests.size());
        for (FakeApmServer.Received r : server.requests) {
            validator.assertValidNdjson(r.body);
        }
        assertEquals(60, server.eventLines().size());
        assertEquals(reporter.stats().requests(), server.requests.size());
        assertSettled();
    }

    @Test
    void badRequestDropsWhatTheServerDidNotAcceptAndIsNotRetried() throws Exception {
        server.behave(FakeApmServer.Behaviour.status(400,
                "{\"accepted\":2,\"errors\":[{\"message\":\"decode error: data.name: too long\",\"document\":\"{...}\"}]}"));
        start();
        reportEvents(5);
        assertTrue(reporter.flush(10_000), "a 400 does not back off, so the flush completes");
        ReporterStats s = reporter.stats();
        assertEquals(2, s.delivered());
        assertEquals(3, s.dropped(DropReason.SERVER_REJECTED));
        assertEquals(0, s.backoffMillis());
        assertTrue(log().contains("decode error: data.name: too long"), log());
        server.behave(FakeApmServer.Behaviour.accept());
        reportEvents(3);
        assertTrue(reporter.flush(10_000));
        assertEquals(5, s.delivered());
        assertEquals(5 + 3, server.eventLines().size(), "nothing was sent twice");
        assertSettled();
    }

    @Test
    void unauthorizedIsLoggedWithAHintAndBacksOff() throws Exception {
        server.behave(FakeApmServer.Behaviour.status(401, "{\"accepted\":0,\"errors\":[{\"message\":\"authentication failed\"}]}"));
        start();
        reportEvents(4);
        waitUntil("rejected", () -> reporter.stats().dropped(DropReason.SERVER_REJECTED) == 4);
        assertTrue(reporter.stats().backoffMillis() > 0);
        assertTrue(log().contains("secret_token or api_key"), log());
        assertTrue(log().contains("authentication failed"), log());
        assertSettled();
    }

    @Test
    void serverUnavailableBacksOffKeepsBufferingAndDeliversWhenBack() throws Exception {
        server.behave(FakeApmServer.Behaviour.status(503, "{\"accepted\":0,\"errors\":[{\"message\":\"queue is full\"}]}"));
        start();
        reportEvents(3);
        waitUntil("the first request failed", () -> reporter.stats().dropped(DropReason.SEND_FAILED) == 3);
        assertTrue(reporter.stats().backoffMillis() > 0);
        reportEvents(12); // keep arriving during the outage: buffered, not blocked
        server.behave(FakeApmServer.Behaviour.accept());
        waitUntil("delivered after the outage", () -> reporter.stats().delivered() == 12);
        assertEquals(0, reporter.stats().backoffMillis());
        assertSettled();
    }

    /**
     * One case per class of reply (docs/architecture.md, "Replies"): how its events are counted, whether it counts as
     * garbage, whether the sender backs off. 4xx drop as server_rejected, 5xx and replies without a status line as
     * send_failed; only replies the agent cannot read are garbage.
     */
    @ParameterizedTest(name = "[{index}] {0} {1} {3}")
    @CsvSource(delimiter = '|', value = {
        "REPLY | 202 | ''                                                        |                  | 3 | 0 | 0 | false | false",
        "REPLY | 400 | '{\"accepted\":0,\"errors\":[{\"message\":\"bad\"}]}'        | application/json | 0 | 3 | 0 | false | false",
        "REPLY | 401 | '{\"error\":\"authentication failed\"}'                   | application/json | 0 | 3 | 0 | false | true",
        "REPLY | 404 | 404 page not found                                        | text/plain       | 0 | 3 | 0 | false | true",
        "REPLY | 429 | '{\"accepted\":0,\"errors\":[{\"message\":\"slow down\"}]}'  | application/json | 0 | 3 | 0 | false | true",
        "REPLY | 503 | '{\"accepted\":0,\"errors\":[{\"message\":\"queue is full\"}]}' | application/json | 0 | 0 | 3 | false | true",
        "REPLY | 502 | <html><body>Bad Gateway</body></html>                     | text/html        | 0 | 0 | 3 | false | true",
        "REPLY | 500 | '\u0000 not json {{'                                      | application/json | 0 | 0 | 3 | true  | true",
        "GARBAGE_STATUS_LINE | 0 | ''                                           |                  | 0 | 0 | 3 | true  | true",
        "CLOSE_WITHOUT_REPLY | 0 | ''                                           |                  | 0 | 0 | 3 | true  | true"})
    void eachReplyClassIsCountedAsDocumented(FakeApmServer.Mode mode, int status, String body, String contentType,
                                             long delivered, long rejected, long sendFailed, boolean garbage,
                                             boolean backsOff) throws Exception {
        server.behave(new FakeApmServer.Behaviour(mode, status, body, contentType));
        start();
        reportEvents(3);
        waitUntil("the events settled", () -> reporter.stats().delivered() + reporter.stats().dropped() == 3);
        ReporterStats s = reporter.stats();
        assertEquals(delivered, s.delivered(), s.toString());
        assertEquals(rejected, s.dropped(DropReason.SERVER_REJECTED), s.toString());
        assertEquals(sendFailed, s.dropped(DropReason.SEND_FAILED), s.toString());
        assertEquals(garbage, s.garbageReplies() > 0, s.toString());
        assertEquals(status == 202 ? 0 : s.requests(), s.requestFailures(), s.toString());
        if (backsOff) {
            waitUntil("backing off", () -> reporter.stats().backoffMillis() > 0);
        } else {
            assertEquals(0, s.backoffMillis(), s.toString());
        }
        assertFalse(log().contains("reply ()"), log());
        if (mode == FakeApmServer.Mode.CLOSE_WITHOUT_REPLY) {
            assertTrue(log().contains("closed the connection before sending an HTTP status line"), log());
        }
        assertSettled();
    }

    /** The counters' line comes every reporter_stats_log_interval, however many lines that makes a minute. */
    @Test
    void theCountersLineIsNotCutByTheLogsRateLimit() throws Exception {
        AgentLog.setMaxPerMinute(AgentLog.DEFAULT_MAX_PER_MINUTE);
        LogLevel level = AgentLog.level();
        AgentLog.setLevel(LogLevel.DEBUG);
        try {
            Map<String, Object> options = new HashMap<String, Object>();
            options.put(CoreOptions.SERVICE_NAME.key(), "reporter-test");
            options.put(CoreOptions.SERVER_URLS.key(), Arrays.asList(server.url()));
            options.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
            PipelineSettings settings = PipelineSettings.from(Config.ofParsed(options));
            settings.statsLogIntervalMillis = 2; // a second in production; the line's count per minute is what matters
            settings.maxIdleParkMillis = 1;
            reporter = new ApmReporter(Config.ofParsed(options), settings);
            reporter.start();
            // Rate-limited, the line would stop at the limit (20 a minute) and this wait would time out and fail; the
            // "Suppressed" summary itself only comes when the minute's window rolls over, so it is no check here.
            waitUntil("more counter lines than the log's limit a minute", () -> log().split("reporter: produced=", -1).length > 30);
        } finally {
            AgentLog.setLevel(level);
        }
    }

    @Test
    void duringAnOutageTheReporterKeepsDrainingTheHandOff() throws Exception {
        String down = FakeApmServer.downUrl();
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.MAX_QUEUE_SIZE.key(), 16);
        start(options, Arrays.asList(down));
        reportEvents(3);
        waitUntil("backing off", () -> reporter.stats().backoffMillis() > 0);
        for (int round = 0; round < 10; round++) {
            reportEvents(12); // less than the hand-off holds per round
            waitUntil("the hand-off drained into the byte buffer", () -> reporter.pipeline().handoff.size() == 0);
        }
        assertEquals(0, reporter.stats().dropped(DropReason.QUEUE_FULL), "the back-off never backed up the hand-off");
        assertEquals(123, reporter.pipeline().ring.entries());
        assertSettled();
    }

    @Test
    void tooManyRequestsBacksOff() throws Exception {
        server.behave(FakeApmServer.Behaviour.status(429, "{\"accepted\":0,\"errors\":[{\"message\":\"rate limit exceeded\"}]}"));
        start();
        reportEvents(3);
        waitUntil("rejected", () -> reporter.stats().dropped(DropReason.SERVER_REJECTED) == 3);
        assertTrue(reporter.stats().backoffMillis() > 0);
        reportEvents(3); // buffered while the sender backs off
        assertFalse(reporter.flush(100), "a flush does not wait out a back-off");
        server.behave(FakeApmServer.Behaviour.accept());
        waitUntil("the events buffered during the back-off are delivered after it", () -> reporter.stats().delivered() == 3);
        reportEvents(3);
        waitUntil("delivered", () -> reporter.stats().delivered() == 6);
        assertSettled();
    }

    @Test
    void aHungServerTimesOutWhileReportKeepsReturning() throws Exception {
        server.behave(FakeApmServer.Behaviour.of(FakeApmServer.Mode.HANG));
        start();
        reportEvents(3);
        assertFalse(reporter.flush(200), "the server never answers");
        // the sender is stuck waiting for the reply right now; the application is not
        reportEvents(30);
        waitUntil("the hung request timed out", () -> reporter.stats().dropped(DropReason.SEND_FAILED) >= 3);
        assertTrue(reporter.stats().requestFailures() >= 1);
        assertSettled();
    }

    @Test
    void aResetConnectionCountsAsFailedAndRecovers() throws Exception {
        server.behave(FakeApmServer.Behaviour.of(FakeApmServer.Mode.RESET));
        start();
        reportEvents(3);
        waitUntil("a failure", () -> reporter.stats().requestFailures() >= 1);
        server.behave(FakeApmServer.Behaviour.accept());
        waitUntil("delivered", () -> reporter.stats().delivered() > 0 || reporter.stats().dropped() == 3);
        reportEvents(3);
        waitUntil("delivered", () -> reporter.stats().deliveredOf(EventTypes.ERROR) >= 1);
        assertSettled();
    }

    @Test
    void aSlowReaderEvictsOldEventsButNeverBlocksTheApplication() throws Exception {
        server.behave(FakeApmServer.Behaviour.of(FakeApmServer.Mode.SLOW_READ));
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(ReporterOptions.MAX_BUFFER_SIZE.key(), 64L * 1024);
        options.put(ReporterOptions.SERVER_TIMEOUT.key(), 5000L);
        start(options);
        for (int round = 0; round < 6; round++) {
            reportEvents(100);
            Thread.sleep(20);
        }
        waitUntil("the buffer overflowed", () -> reporter.stats().evicted() > 0);
        assertTrue(reporter.stats().evictedOf(EventTypes.TRANSACTION) > 0);
        assertSettled();
    }

    @Test
    void aDownServerFailsOverToTheNextUrl() throws Exception {
        start(new HashMap<String, Object>(), Arrays.asList(FakeApmServer.downUrl(), server.url()));
        reportEvents(6);
        waitUntil("delivered through the second URL", () -> reporter.stats().delivered() == 6);
        assertTrue(reporter.stats().requestFailures() >= 1);
        assertTrue(log().contains("cannot connect"), log());
        assertSettled();
    }

    /** The log names the server it cannot reach without the credentials in its URL. */
    @Test
    void credentialsInTheServerUrlAreNotLogged() throws Exception {
        String down = FakeApmServer.downUrl().replace("http://", "http://apm-user:Pa55word@");
        start(new HashMap<String, Object>(), Arrays.asList(down));
        reportEvents(3);
        // the sender counts the failure before it logs it: wait for the line, not the counter
        waitUntil("a connection failure logged", () -> log().contains("cannot connect"));
        assertTrue(log().contains("cannot connect to APM Server at " + down.replace("apm-user:Pa55word", "[REDACTED]")), log());
        assertFalse(log().contains("Pa55word"), log());
        assertSettled();
    }

    @Test
    void aServerThatIsDownAndComesBackGetsTheBufferedEvents() throws Exception {
        String down = FakeApmServer.downUrl();
        start(new HashMap<String, Object>(), Arrays.asList(down));
        reportEvents(9);
        waitUntil("a connection failure", () -> reporter.stats().requestFailures() >= 1);
        assertEquals(0, reporter.stats().dropped(), "nothing was in flight, so nothing is lost");
        int port = Integer.parseInt(down.substring(down.lastIndexOf(':') + 1));
        server.close();
        server = new FakeApmServer(port);
        waitUntil("delivered", () -> reporter.stats().delivered() == 9);
        assertEquals(9, server.eventLines().size());
        assertSettled();
    }

    @Test
    void garbageRepliesNeverKillTheSender() throws Exception {
        server.behave(FakeApmServer.Behaviour.of(FakeApmServer.Mode.GARBAGE_STATUS_LINE));
        start();
        reportEvents(3);
        waitUntil("garbage seen", () -> reporter.stats().requestFailures() >= 1);
        char[] huge = new char[200_000];
        Arrays.fill(huge, '<');
        server.behave(new FakeApmServer.Behaviour(FakeApmServer.Mode.REPLY, 500, new String(huge), "text/html"));
        reportEvents(3);
        waitUntil("html error seen", () -> reporter.stats().garbageReplies() >= 1);
        server.behave(new FakeApmServer.Behaviour(FakeApmServer.Mode.REPLY, 202, "{\"weird\":true", "image/png"));
        reportEvents(3);
        waitUntil("delivered despite an odd 202", () -> reporter.stats().delivered() >= 3);
        server.behave(new FakeApmServer.Behaviour(FakeApmServer.Mode.INTERIM_THEN_REPLY, 202, "", null));
        reportEvents(3);
        waitUntil("delivered after interim 1xx replies", () -> reporter.stats().delivered() >= 6);
        assertSettled();
    }

    @Test
    void aFullHandOffDropsCountsAndReleasesAtOnce() {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.MAX_QUEUE_SIZE.key(), 16);
        Map<String, Object> all = new HashMap<String, Object>(options);
        all.put(CoreOptions.SERVER_URLS.key(), Arrays.asList(server.url()));
        all.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
        reporter = new ApmReporter(Config.ofParsed(all)); // not started: nothing drains the hand-off
        int accepted = reportEvents(30);
        assertEquals(16, accepted);
        ReporterStats s = reporter.stats();
        assertEquals(14, s.dropped(DropReason.QUEUE_FULL));
        assertEquals(4, s.droppedOf(DropReason.QUEUE_FULL, EventTypes.TRANSACTION)); // events 18, 21, 24, 27
        assertEquals(16, s.buffered());
        for (int i = 16; i < 30; i++) {
            Object e = reported.get(i);
            int refs = e instanceof AbstractSpan ? ((AbstractSpan) e).referenceCount() : ((ErrorEvent) e).referenceCount();
            assertEquals(0, refs, "a dropped event is released at once");
        }
        reporter.start();
        assertTrue(reporter.flush(10_000));
        assertEquals(16, s.delivered());
        assertSettled();
    }

    /** No busy spin: idle, both threads sleep (a spinning thread would burn the whole second). */
    @Test
    void idleThreadsUseAlmostNoCpu() throws Exception {
        start();
        reportEvents(3);
        assertTrue(reporter.flush(10_000));
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] ids = new long[2];
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("apm-reporter")) {
                ids[0] = t.getId();
            } else if (t.getName().equals("apm-sender")) {
                ids[1] = t.getId();
            }
        }
        Thread.sleep(300); // let the short parks run out
        long before = mx.getThreadCpuTime(ids[0]) + mx.getThreadCpuTime(ids[1]);
        Thread.sleep(1000);
        long cpu = mx.getThreadCpuTime(ids[0]) + mx.getThreadCpuTime(ids[1]) - before;
        System.out.printf("idle reporter + sender: %.2f ms CPU in 1 s%n", cpu / 1e6);
        assertTrue(cpu < 200_000_000L, "idle CPU " + cpu / 1_000_000 + " ms per second");
        assertTrue(reporter.pipeline().handoff.isConsumerSleeping(), "the reporter announced a long sleep");
        assertSettled();
    }

    @Test
    void reportNeverThrowsIntoTheApplication() {
        start();
        assertFalse(reporter.report((Transaction) null));
        assertFalse(reporter.report((Span) null));
        assertFalse(reporter.report((ErrorEvent) null));
        assertEquals(0, reporter.stats().produced());
    }

    @Test
    void anEventLargerThanMaxEventSizeIsDroppedAsTooBig() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(ReporterOptions.MAX_EVENT_SIZE.key(), 32L * 1024);
        start(options);
        Span big = TestEvents.span("x");
        char[] statement = new char[9000];
        Arrays.fill(statement, '\u0001'); // 6 bytes each once escaped: 54 kB
        big.context().db().setStatement(new String(statement));
        reported.add(big);
        assertTrue(reporter.report(big), "accepted by the hand-off, dropped on the reporter thread");
        reportEvents(3);
        assertTrue(reporter.flush(10_000));
        assertEquals(1, reporter.stats().droppedOf(DropReason.TOO_BIG, EventTypes.SPAN));
        assertEquals(3, reporter.stats().delivered());
        assertSettled();
    }

    @Test
    void metricsetsTravelTheSamePipeline() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(ReporterOptions.METRICS_INTERVAL.key(), 50L);
        options.put(ReporterOptions.API_REQUEST_TIME.key(), 100L);
        start(options);
        waitUntil("metricsets delivered", () -> reporter.stats().deliveredOf(EventTypes.METRICSET) > 20);
        boolean health = false;
        boolean jvm = false;
        for (FakeApmServer.Received r : server.requests) {
            validator.assertValidNdjson(r.body);
            health |= r.body.contains("\"agent.events.total\"") && r.body.contains("\"agent.events.queue.max_size.pct\"");
            jvm |= r.body.contains("\"jvm.memory.heap.used\"");
        }
        assertTrue(health, "agent health metricset");
        assertTrue(jvm, "JVM metricset");
        assertSettled();
    }

    @Test
    void closeStopsBothThreadsEvenWhenTheServerHangs() throws Exception {
        server.behave(FakeApmServer.Behaviour.of(FakeApmServer.Mode.HANG));
        start();
        reportEvents(3);
        waitUntil("a request is open", () -> server.requests.size() > 0 || server.connections > 0);
        reporter.close(300);
        ReportingPipeline p = reporter.pipeline();
        waitUntil("threads stopped", () -> !p.threadsAlive());
        assertFalse(reporter.report(TestEvents.transaction("after close")), "events after close are dropped");
        assertTrue(p.isClosed());
        ReporterStats s = reporter.stats();
        assertEquals(s.produced(), s.delivered() + s.dropped() + s.evicted() + s.buffered(), s.toString());
    }
}
