package dev.apmagent.benchmark.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs the overhead harness's machinery once in a tiny configuration, so that a broken harness fails the build: the
 * sink counting intake v2 (deflate, chunked) and OTLP (JSON, protobuf, gzip) requests, the load generator against a
 * trivial local HTTP server for about a second, and the report rendering. No timing is asserted.
 */
class OverheadHarnessTest {

    private static final String NDJSON = String.join("\n",
            "{\"metadata\":{\"service\":{\"name\":\"reference-app\"}}}",
            "{\"transaction\":{\"id\":\"a\",\"name\":\"GET /db\"}}",
            "{\"span\":{\"id\":\"b\",\"name\":\"SELECT FROM items\"}}",
            "{\"span\":{\"id\":\"c\",\"name\":\"SELECT FROM items\"}}",
            "{\"error\":{\"id\":\"d\"}}",
            "{\"transaction\":{\"id\":\"e\",\"name\":\"GET /hello\"}}",
            "") + "\n";

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void sinkCountsIntakeEventsPerTypeInADeflatedChunkedRequest() throws Exception {
        try (TelemetrySink sink = new TelemetrySink()) {
            byte[] deflated = deflate(NDJSON.getBytes(StandardCharsets.UTF_8));
            String reply = postChunked(sink, "/intake/v2/events", "application/x-ndjson", "deflate", deflated);
            assertTrue(reply.startsWith("HTTP/1.1 202"), reply);

            Map<String, Long> counts = sink.snapshot();
            assertEquals(1L, counts.get("intake_metadata"));
            assertEquals(2L, counts.get("intake_transaction"));
            assertEquals(2L, counts.get("intake_span"));
            assertEquals(1L, counts.get("intake_error"));
            assertEquals(1L, counts.get(TelemetrySink.INTAKE_REQUESTS));
            assertEquals(null, counts.get(TelemetrySink.UNREADABLE));
        }
    }

    /** The fault path answers 503 to the agent's intake request and counts it as a fault, not as delivered events. */
    @Test
    void sinkAnswers503UnderTheFaultPathAndCountsNoEvents() throws Exception {
        try (TelemetrySink sink = new TelemetrySink()) {
            String reply = postChunked(sink, TelemetrySink.FAULT_503 + "/intake/v2/events", "application/x-ndjson", "deflate",
                    deflate(NDJSON.getBytes(StandardCharsets.UTF_8)));
            assertTrue(reply.startsWith("HTTP/1.1 503 Service Unavailable"), reply);
            Map<String, Long> counts = sink.snapshot();
            assertEquals(1L, counts.get(TelemetrySink.FAULT_REQUESTS));
            assertEquals(null, counts.get(TelemetrySink.INTAKE_REQUESTS));
            assertEquals(null, counts.get("intake_transaction"));
        }
    }

    @Test
    void sinkCountsOtlpJsonSpansAndAnswersTheServerVersion() throws Exception {
        String json = "{\"resourceSpans\":[{\"resource\":{},\"scopeSpans\":[{\"scope\":{\"name\":\"jdbc\"},\"spans\":["
                + "{\"traceId\":\"01\",\"spanId\":\"02\",\"name\":\"GET /db\"},"
                + "{\"traceId\":\"01\",\"spanId\":\"03\",\"parentSpanId\":\"02\",\"name\":\"SELECT\"}]},"
                + "{\"spans\":[{\"traceId\":\"04\",\"spanId\":\"05\",\"parentSpanId\":\"\"}]}]}]}";
        try (TelemetrySink sink = new TelemetrySink()) {
            HttpResponse<String> reply = client.send(HttpRequest.newBuilder(URI.create(sink.url() + "/v1/traces"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, reply.statusCode());
            assertEquals("{}", reply.body());

            HttpResponse<String> version = client.send(HttpRequest.newBuilder(URI.create(sink.url() + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, version.statusCode());
            assertTrue(version.body().contains("\"version\""), version.body());

            assertEquals(3L, sink.snapshot().get(TelemetrySink.OTLP_SPANS));
            assertEquals(2L, sink.snapshot().get(TelemetrySink.REQUESTS));
        }
    }

    @Test
    void sinkCountsOtlpProtobufSpansInAGzippedRequest() throws Exception {
        byte[] span = concat(bytesField(1, new byte[16]), bytesField(2, new byte[8]),
                bytesField(5, "SELECT".getBytes(StandardCharsets.UTF_8)), fixed64Field(7), varintField(6, 2));
        byte[] scope = bytesField(1, bytesField(1, "io.opentelemetry.jdbc".getBytes(StandardCharsets.UTF_8)));
        byte[] resource = bytesField(1, bytesField(1, concat(bytesField(1, "service.name".getBytes(
                StandardCharsets.UTF_8)))));
        byte[] scopeSpans1 = concat(scope, bytesField(2, span), bytesField(2, span));
        byte[] scopeSpans2 = concat(bytesField(2, span), bytesField(3, "schema".getBytes(StandardCharsets.UTF_8)));
        byte[] resourceSpans1 = concat(resource, bytesField(2, scopeSpans1), bytesField(2, scopeSpans2));
        byte[] resourceSpans2 = bytesField(2, bytesField(2, span));
        byte[] request = concat(bytesField(1, resourceSpans1), bytesField(1, resourceSpans2));
        assertEquals(4, TelemetrySink.countProtobufSpans(request));

        try (TelemetrySink sink = new TelemetrySink()) {
            HttpResponse<byte[]> reply = client.send(HttpRequest.newBuilder(URI.create(sink.url() + "/v1/traces"))
                    .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "gzip")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(gzip(request))).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, reply.statusCode());
            assertEquals(0, reply.body().length);
            assertEquals(4L, sink.snapshot().get(TelemetrySink.OTLP_SPANS));

            Map<String, Long> before = sink.snapshot();
            client.send(HttpRequest.newBuilder(URI.create(sink.url() + "/v1/traces"))
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {0x0a, 0x05, 0x12})).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertEquals(Map.of(TelemetrySink.REQUESTS, 1L, TelemetrySink.OTLP_TRACE_REQUESTS, 1L,
                    TelemetrySink.UNREADABLE, 1L), TelemetrySink.delta(before, sink.snapshot()),
                    "a truncated message is counted as unreadable, not as spans");
        }
    }

    @Test
    void loadGeneratorRecordsResponsesAndCountsErrorsAgainstALocalServer() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.createContext("/ok", exchange -> {
            byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/fail", exchange -> {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        server.start();
        try {
            int port = server.getAddress().getPort();
            LoadWindow ok;
            try (LoadGenerator load = LoadGenerator.start("127.0.0.1", port, "/ok", 2)) {
                Thread.sleep(300);
                load.interval(); // a "warm-up" window
                Thread.sleep(1000);
                ok = load.interval();
            }
            assertTrue(ok.responses() > 0, "no response recorded");
            assertEquals(0, ok.errors());
            assertTrue(ok.seconds() > 0);
            assertTrue(ok.p50Nanos() > 0);
            assertTrue(ok.perSecond() > 0);

            LoadWindow failed;
            try (LoadGenerator load = LoadGenerator.start("127.0.0.1", port, "/fail", 1)) {
                Thread.sleep(300);
                failed = load.interval();
            }
            assertEquals(0, failed.responses(), "a 500 must not be recorded as a response");
            assertTrue(failed.errors() > 0, "a 500 must count as an error");

            assertTrue(OverheadHarness.get(port, "/ok").contains("\"ok\""));
            assertThrows(IOException.class, () -> OverheadHarness.get(port, "/fail"));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void reportGivesMediansAndRatiosToNoAgentAndWhatTheSinkReceived() {
        AgentSetup none = AgentSetup.none();
        AgentSetup ours = AgentSetup.ours(Path.of("/x/apm-agent.jar"), "0.1.0", "http://127.0.0.1:1", "30s");
        List<RunResult> results = List.of(
                result(none, 1, 1000, 10, Map.of()),
                result(ours, 1, 400, 25, Map.of("intake_transaction", 900L, "intake_span", 900L)),
                result(none, 2, 1200, 12, Map.of()),
                result(ours, 2, 600, 30, Map.of("intake_transaction", 1000L, "intake_span", 1000L)),
                result(none, 3, 800, 14, Map.of()),
                result(ours, 3, 500, 20, Map.of("intake_transaction", 1100L, "intake_span", 1100L)));

        String md = OverheadReport.renderEndpoint("/db", results);

        assertTrue(md.contains("### `/db`"), md);
        assertTrue(md.contains("Median of 3 round(s)"), md);
        // medians: none 1000 req/s, 12 µs; ours 500 req/s, 25 µs
        assertTrue(md.contains("| no agent | 1000 (1.00) |"), md);
        assertTrue(md.contains("| apm-agent (this project) | 500 (0.50) |"), md);
        assertTrue(md.contains("| 25.0 µs (2.08) |"), md);
        // 3000 transactions for 3 x 1000 served requests
        assertTrue(md.contains("| apm-agent (this project) | 3000 | 3000 | 3000 | 0 | 0 | 0 | 1.000 | 6 |"), md);
        assertEquals(6, md.split("\n\\| [123] \\| ").length - 1, "one raw row per run");
    }

    @ParameterizedTest
    @CsvSource({
        "'100,100,100,100,100,100', 0.05, true",
        "'10,50,100,100,104,100', 0.05, false", // still above the three before
        "'100,100,100,100,104,100', 0.05, true",
        "'100,100,100,100,104,110', 0.05, false", // the last three disagree
        "'100,100,100,100,104,109', 0.10, true",
        "'60,60,60,100,100,100', 0.10, false", // a plateau on the way up
        "'100,100,100,100,100', 0.50, false", // too few windows
        "'0,0,0,0,0,0', 0.05, false",
    })
    void throughputHasSettledWhenTheLastThreeWindowsAgree(String rates, double tolerance, boolean settled) {
        List<Double> windows = java.util.Arrays.stream(rates.split(",")).map(Double::valueOf).toList();
        assertEquals(settled, OverheadHarness.settled(windows, tolerance));
    }

    @Test
    void dropLogLinesCountLinesMentioningDrops(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("app.log");
        Files.writeString(log, String.join("\n", "INFO: Starting service [Tomcat]",
                "[otel.javaagent] WARN BatchSpanProcessor dropped 139 span(s) since the last export because the queue"
                        + " is full (maxQueueSize=2048)",
                "WARN Events DROPPED: 12", "INFO: Server startup"));
        assertEquals(2, OverheadHarness.dropLogLines(log));
    }

    @Test
    void procStatsParseCpuTicksAndRss() throws Exception {
        String stat = "4242 (java (my) app) S 1 4242 4242 0 -1 4194560 12345 0 0 0 1500 250 0 0 20 0 42 0 100 "
                + "5000000 30000 18446744073709551615";
        assertEquals(1750, ProcStats.cpuTicksOf(stat));
        assertEquals(281236, ProcStats.rssKibOf("Name:\tjava\nVmPeak:\t 9999 kB\nVmRSS:\t  281236 kB\nThreads: 42\n"));
        if (ProcStats.available()) {
            long self = ProcessHandle.current().pid();
            assertTrue(ProcStats.cpuTicks(self) > 0);
            assertTrue(ProcStats.rssKib(self) > 0);
        }
    }

    @Test
    void optionsGiveQuickDefaultsAndRejectUnknownArguments() throws Exception {
        OverheadHarness.Options quick = OverheadHarness.Options.parse(new String[] {"--quick", "--rounds", "2"});
        assertEquals(List.of("/db"), quick.endpoints);
        assertEquals(2, quick.rounds);
        assertEquals(AgentSetup.DEFAULT_KEYS, quick.configs);
        OverheadHarness.Options full = OverheadHarness.Options.parse(new String[] {"--full", "--no-pin"});
        assertEquals(List.of("/hello", "/db", "/db3"), full.endpoints);
        assertEquals(null, full.appCpus);
        assertThrows(IllegalArgumentException.class, () -> OverheadHarness.Options.parse(new String[] {"--rounds"}));
        assertThrows(IllegalArgumentException.class,
                () -> OverheadHarness.Options.parse(new String[] {"--quick", "--configs", "none,newrelic"}));
        assertEquals("2.33.1", OverheadHarness.Options.versionOf(Path.of("a/opentelemetry-javaagent-2.33.1.jar"),
                "opentelemetry-javaagent-"));
        assertFalse(AgentSetup.otel(Path.of("o.jar"), "2", "http://127.0.0.1:9").flags().isEmpty());
        OverheadHarness.Options faults = OverheadHarness.Options.parse(new String[] {"--quick", "--configs",
                "none,ours,ours-down,ours-503,ours-hang"});
        assertEquals(List.of("none", "ours", "ours-down", "ours-503", "ours-hang"), faults.configs);
        AgentSetup failing = AgentSetup.oursFaulty(AgentSetup.ServerFault.ofKey("ours-503"), Path.of("a.jar"), "1",
                "http://127.0.0.1:9", "30s");
        assertEquals("ours-503", failing.key());
        assertTrue(failing.flags().contains("-Delastic.apm.server_url=http://127.0.0.1:9" + TelemetrySink.FAULT_503), failing.flags());
        assertTrue(AgentSetup.oursFaulty(AgentSetup.ServerFault.DOWN, Path.of("a.jar"), "1", "http://127.0.0.1:9", "30s")
                .flags().matches(".*-Delastic\\.apm\\.server_url=http://127\\.0\\.0\\.1:\\d+ .*"));
    }

    private static RunResult result(AgentSetup setup, int round, long rps, double cpuMicros, Map<String, Long> sink) {
        return new RunResult(setup, round, 1500, 30, true, 1.0, rps, 0, 700, 4000, 9000, cpuMicros, 250_000,
                10_000_000, 1000, sink, sink.isEmpty() ? 0 : 2);
    }

    /** Sends a POST with a chunked body on a raw socket, as the Elastic agent streams; returns the reply's head. */
    private static String postChunked(TelemetrySink sink, String path, String contentType, String encoding,
                                      byte[] body) throws IOException {
        URI uri = URI.create(sink.url());
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + contentType
                    + "\r\nContent-Encoding: " + encoding + "\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            int half = body.length / 2;
            writeChunk(out, body, 0, half);
            writeChunk(out, body, half, body.length - half);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String head = HttpWire.readHead(in);
            HttpWire.readBody(in, head);
            return head;
        }
    }

    private static void writeChunk(OutputStream out, byte[] b, int off, int len) throws IOException {
        out.write((Integer.toHexString(len) + ";ext=1\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(b, off, len);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] deflate(byte[] b) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DeflaterOutputStream out = new DeflaterOutputStream(bytes)) {
            out.write(b);
        }
        return bytes.toByteArray();
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(b);
        }
        return bytes.toByteArray();
    }

    private static byte[] bytesField(int field, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        varint(out, (field << 3) | 2);
        varint(out, value.length);
        out.writeBytes(value);
        return out.toByteArray();
    }

    private static byte[] fixed64Field(int field) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        varint(out, (field << 3) | 1);
        out.writeBytes(new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) 0x88});
        return out.toByteArray();
    }

    private static byte[] varintField(int field, long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        varint(out, field << 3);
        varint(out, value);
        return out.toByteArray();
    }

    private static void varint(ByteArrayOutputStream out, long value) {
        long v = value;
        while ((v & ~0x7fL) != 0) {
            out.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void wrkSummaryLineIsParsedIntoAWindow() throws Exception {
        String out = "Running 5s test @ http://127.0.0.1:1/db\n  1 threads and 16 connections\n"
                + "wrk-summary requests=1000 duration_us=5000000 status_errors=3 socket_errors=2 p50_us=250 p99_us=900"
                + " p999_us=1500\n";
        LoadWindow w = WrkLoad.parse(out);
        assertEquals(997, w.responses(), "non-2xx/3xx answers are not responses");
        assertEquals(5, w.errors());
        assertEquals(5.0, w.seconds(), 1e-9);
        assertEquals(199.4, w.perSecond(), 1e-9);
        assertEquals(250_000, w.p50Nanos());
        assertEquals(900_000, w.p99Nanos());
        assertEquals(1_500_000, w.p999Nanos());
        assertThrows(IOException.class, () -> WrkLoad.parse("wrk: connection refused\n"));
    }
}
