package dev.apmagent.benchmark.overhead;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import jdk.net.ExtendedSocketOptions;

/**
 * The back end every measured agent reports to: an HTTP/1.1 server on 127.0.0.1 that accepts Elastic APM intake v2
 * ({@code POST /intake/v2/events}, NDJSON, plain, deflate or gzip) and OTLP/HTTP ({@code POST /v1/traces},
 * {@code /v1/metrics}, {@code /v1/logs}, protobuf or JSON), answers at once (202 for intake, 200 with an empty message
 * for OTLP, a version document for {@code GET /}), and counts what arrived: intake events per type (the key of each
 * NDJSON line: metadata, transaction, span, error, metricset, ...) and OTLP spans. Connections stay open (keep-alive),
 * one daemon thread each, with TCP_NODELAY so that no reply waits for a delayed ACK and TCP_QUICKACK before each read: an exporter that leaves Nagle on
 * would otherwise stall ~40 ms per export and drop, and the run would measure the back end, not the agent.
 *
 * <p>OTLP spans are counted without a protobuf library: in protobuf by walking the wire format
 * ({@code ExportTraceServiceRequest.resource_spans(1) -> ResourceSpans.scope_spans(2) -> ScopeSpans.spans(2)}), in
 * JSON by counting {@code "spanId"} keys (a span has exactly one; its parent's is {@code "parentSpanId"}).
 */
public final class TelemetrySink implements AutoCloseable {

    /** Counter names besides the intake event types. */
    public static final String REQUESTS = "http_requests";
    public static final String OTLP_SPANS = "otlp_spans";
    public static final String OTLP_METRICS_REQUESTS = "otlp_metrics_requests";
    public static final String OTLP_LOGS_REQUESTS = "otlp_logs_requests";
    public static final String INTAKE_REQUESTS = "intake_requests";
    public static final String OTLP_TRACE_REQUESTS = "otlp_trace_requests";
    public static final String UNREADABLE = "unreadable_requests";
    /** Requests to a fault path: answered 503, or read and left unanswered for {@link #HANG_NANOS}. */
    public static final String FAULT_REQUESTS = "fault_requests";
    /** Path prefixes that make the sink a failing APM Server for agents whose server URL ends with one. */
    public static final String FAULT_503 = "/fault-503";
    public static final String FAULT_HANG = "/fault-hang";
    static final long HANG_NANOS = 30_000_000_000L;
    private static final byte[] UNAVAILABLE_BODY = "{\"error\":\"queue is full\"}".getBytes(StandardCharsets.US_ASCII);

    private static final byte[] VERSION_BODY = "{\"version\":\"8.15.0\",\"build_flavor\":\"default\"}"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_JSON = "{}".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOTHING = new byte[0];
    private static final byte[] SPAN_ID_KEY = "\"spanId\"".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private volatile boolean open = true;

    public TelemetrySink() throws IOException {
        this(0);
    }

    public TelemetrySink(int port) throws IOException {
        server = new ServerSocket(port, 128, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "telemetry-sink");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Runs the sink alone, for measurements by hand ({@code wrk} against an application whose agent reports here):
     * {@code java -cp benchmarks.jar dev.apmagent.benchmark.overhead.TelemetrySink [port]} prints its URL, then every
     * counter that moved, every 10 s.
     */
    public static void main(String[] args) throws Exception {
        try (TelemetrySink sink = new TelemetrySink(args.length > 0 ? Integer.parseInt(args[0]) : 0)) {
            System.out.println("sink listening at " + sink.url());
            Map<String, Long> last = sink.snapshot();
            while (true) {
                Thread.sleep(10_000);
                Map<String, Long> now = sink.snapshot();
                Map<String, Long> delta = delta(last, now);
                if (!delta.isEmpty()) {
                    System.out.println("received " + delta + ", in all " + now);
                }
                last = now;
            }
        }
    }

    /** {@code http://127.0.0.1:port}, for server_url and OTEL_EXPORTER_OTLP_ENDPOINT alike. */
    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** A copy of every counter, sorted by name. */
    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    /** What arrived between two snapshots: {@code after - before} for every counter that moved. */
    public static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> delta = new TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d != 0) {
                delta.put(k, d);
            }
        });
        return delta;
    }

    private void count(String name, long n) {
        counts.computeIfAbsent(name, k -> new LongAdder()).add(n);
    }

    private void acceptLoop() {
        while (open) {
            try {
                Socket socket = server.accept();
                Thread handler = new Thread(() -> serve(socket), "telemetry-sink-connection");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                if (open) {
                    count(UNREADABLE, 1);
                }
            }
        }
    }

    private void serve(Socket socket) {
        try (Socket s = socket) {
            s.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(quickAck(s), 64 * 1024);
            OutputStream out = s.getOutputStream();
            while (open) {
                String head = HttpWire.readHead(in);
                if (head == null) {
                    return;
                }
                if (head.isEmpty()) {
                    continue;
                }
                String expect = HttpWire.header(head, "Expect");
                if (expect != null && expect.equalsIgnoreCase("100-continue")) {
                    out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                byte[] body = HttpWire.readBody(in, head);
                count(REQUESTS, 1);
                respond(out, handle(head, body));
                String connection = HttpWire.header(head, "Connection");
                if (connection != null && connection.equalsIgnoreCase("close")) {
                    return;
                }
            }
        } catch (IOException | RuntimeException e) {
            if (open) {
                // a peer that closes a keep-alive connection between requests ends in readHead() == null, not here
                count(UNREADABLE, 1);
            }
        }
    }

    /**
     * The socket's input, with TCP_QUICKACK set before every read: Linux clears it after a while, and a receiver that
     * delays its ACKs stalls a sender that leaves Nagle's algorithm on (about 40 ms per small write), which would
     * measure the sink rather than the agent.
     */
    private static InputStream quickAck(Socket s) throws IOException {
        InputStream raw = s.getInputStream();
        if (!s.supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK)) {
            return raw;
        }
        return new FilterInputStream(raw) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                s.setOption(ExtendedSocketOptions.TCP_QUICKACK, true);
                return super.read(b, off, len);
            }
        };
    }

    /** Counts what a request carries; returns the reply: status, content type and body. */
    private Reply handle(String head, byte[] body) {
        int firstSpace = head.indexOf(' ');
        String method = head.substring(0, firstSpace);
        String target = head.substring(firstSpace + 1, head.indexOf(' ', firstSpace + 1));
        int query = target.indexOf('?');
        String path = query >= 0 ? target.substring(0, query) : target;
        if (!method.equals("POST")) {
            return new Reply(200, "application/json", path.equals("/") ? VERSION_BODY : EMPTY_JSON);
        }
        if (path.startsWith(FAULT_503)) {
            count(FAULT_REQUESTS, 1);
            return new Reply(503, "application/json", UNAVAILABLE_BODY);
        }
        if (path.startsWith(FAULT_HANG)) {
            count(FAULT_REQUESTS, 1);
            hang();
            return new Reply(202, null, NOTHING);
        }
        String contentType = HttpWire.header(head, "Content-Type");
        boolean json = contentType != null && contentType.toLowerCase(Locale.ROOT).contains("json");
        try {
            byte[] content = decode(body, HttpWire.header(head, "Content-Encoding"));
            switch (path) {
                case "/intake/v2/events":
                case "/intake/v2/rum/events":
                    count(INTAKE_REQUESTS, 1);
                    countIntakeEvents(content).forEach(this::count);
                    return new Reply(202, null, NOTHING);
                case "/v1/traces":
                    count(OTLP_TRACE_REQUESTS, 1);
                    count(OTLP_SPANS, json ? countJsonSpans(content) : countProtobufSpans(content));
                    return otlpReply(json);
                case "/v1/metrics":
                    count(OTLP_METRICS_REQUESTS, 1);
                    return otlpReply(json);
                case "/v1/logs":
                    count(OTLP_LOGS_REQUESTS, 1);
                    return otlpReply(json);
                default:
                    return new Reply(202, null, NOTHING);
            }
        } catch (IOException | RuntimeException e) {
            count(UNREADABLE, 1);
            return new Reply(400, null, NOTHING);
        }
    }

    /** A server that read the request and does not answer: holds this connection's thread, never the others. */
    private void hang() {
        long until = System.nanoTime() + HANG_NANOS;
        while (open && System.nanoTime() < until) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Reply otlpReply(boolean json) {
        // an empty Export*ServiceResponse: no partial_success, so everything was accepted
        return json ? new Reply(200, "application/json", EMPTY_JSON)
                : new Reply(200, "application/x-protobuf", NOTHING);
    }

    /** The reason phrase of the statuses the sink answers with. */
    private static String reason(int status) {
        switch (status) {
            case 200:
                return "OK";
            case 202:
                return "Accepted";
            case 503:
                return "Service Unavailable";
            default:
                return "Bad Request";
        }
    }

    private static void respond(OutputStream out, Reply reply) throws IOException {
        StringBuilder head = new StringBuilder(128).append("HTTP/1.1 ").append(reply.status)
                .append(' ').append(reason(reply.status))
                .append("\r\nContent-Length: ").append(reply.body.length).append("\r\n");
        if (reply.contentType != null) {
            head.append("Content-Type: ").append(reply.contentType).append("\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(reply.body);
        out.flush();
    }

    static byte[] decode(byte[] body, String contentEncoding) throws IOException {
        if (contentEncoding == null || contentEncoding.isEmpty() || contentEncoding.equalsIgnoreCase("identity")) {
            return body;
        }
        InputStream decoded;
        if (contentEncoding.equalsIgnoreCase("deflate")) {
            decoded = new InflaterInputStream(new ByteArrayInputStream(body));
        } else if (contentEncoding.equalsIgnoreCase("gzip")) {
            decoded = new GZIPInputStream(new ByteArrayInputStream(body));
        } else {
            throw new IOException("unsupported Content-Encoding " + contentEncoding);
        }
        try (InputStream in = decoded) {
            return in.readAllBytes();
        }
    }

    /** Events per type in an NDJSON intake body: the first key of each line ({@code {"transaction":{...}}}). */
    static Map<String, Long> countIntakeEvents(byte[] ndjson) {
        Map<String, Long> events = new TreeMap<>();
        int lineStart = 0;
        for (int i = 0; i <= ndjson.length; i++) {
            if (i == ndjson.length || ndjson[i] == '\n') {
                String type = firstKey(ndjson, lineStart, i);
                if (type != null) {
                    events.merge("intake_" + type, 1L, Long::sum);
                }
                lineStart = i + 1;
            }
        }
        return events;
    }

    private static String firstKey(byte[] b, int from, int to) {
        int i = from;
        while (i < to && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r')) {
            i++;
        }
        if (i >= to || b[i] != '{') {
            return null;
        }
        int open = indexOf(b, (byte) '"', i + 1, to);
        int close = open < 0 ? -1 : indexOf(b, (byte) '"', open + 1, to);
        return close < 0 ? null : new String(b, open + 1, close - open - 1, StandardCharsets.UTF_8);
    }

    private static int indexOf(byte[] b, byte value, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** Spans in an OTLP/JSON ExportTraceServiceRequest: one {@code "spanId"} key each. */
    static long countJsonSpans(byte[] json) {
        long spans = 0;
        outer:
        for (int i = 0; i + SPAN_ID_KEY.length <= json.length; i++) {
            for (int j = 0; j < SPAN_ID_KEY.length; j++) {
                if (json[i + j] != SPAN_ID_KEY[j]) {
                    continue outer;
                }
            }
            spans++;
            i += SPAN_ID_KEY.length - 1;
        }
        return spans;
    }

    /**
     * Spans in an OTLP/protobuf ExportTraceServiceRequest: the length-delimited field path 1 (resource_spans),
     * 2 (scope_spans), 2 (spans), read from the wire format.
     */
    static long countProtobufSpans(byte[] message) {
        return countPath(message, 0, message.length, new int[] {1, 2, 2}, 0);
    }

    private static long countPath(byte[] b, int from, int to, int[] path, int depth) {
        long found = 0;
        int[] pos = {from};
        while (pos[0] < to) {
            long key = readVarint(b, pos, to);
            int field = (int) (key >>> 3);
            int wireType = (int) (key & 7);
            switch (wireType) {
                case 0:
                    readVarint(b, pos, to);
                    break;
                case 1:
                    pos[0] += 8;
                    break;
                case 5:
                    pos[0] += 4;
                    break;
                case 2:
                    int length = (int) readVarint(b, pos, to);
                    int start = pos[0];
                    if (length < 0 || start + length > to) {
                        throw new IllegalArgumentException("truncated protobuf field " + field);
                    }
                    if (field == path[depth]) {
                        found += depth == path.length - 1 ? 1 : countPath(b, start, start + length, path, depth + 1);
                    }
                    pos[0] = start + length;
                    break;
                default:
                    throw new IllegalArgumentException("unsupported protobuf wire type " + wireType);
            }
        }
        if (pos[0] != to) {
            throw new IllegalArgumentException("truncated protobuf message");
        }
        return found;
    }

    private static long readVarint(byte[] b, int[] pos, int to) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos[0] >= to) {
                throw new IllegalArgumentException("truncated protobuf varint");
            }
            byte next = b[pos[0]++];
            value |= (long) (next & 0x7f) << shift;
            if (next >= 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("protobuf varint longer than 10 bytes");
    }

    @Override
    public void close() throws IOException {
        open = false;
        server.close();
    }

    private static final class Reply {
        final int status;
        final String contentType;
        final byte[] body;

        Reply(int status, String contentType, byte[] body) {
            this.status = status;
            this.contentType = contentType;
            this.body = body;
        }
    }
}
