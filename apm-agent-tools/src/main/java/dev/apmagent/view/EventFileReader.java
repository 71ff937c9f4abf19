package dev.apmagent.view;

import com.dslplatform.json.DslJson;
import com.dslplatform.json.JsonReader;
import com.dslplatform.json.ObjectConverter;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * Streams an NDJSON intake-v2 file line by line into an {@link EventLog}. Each line is walked with DSL-JSON's reader,
 * which reads only the printed fields and skips everything else (stack traces, contexts) without building it. A line that is not one JSON object holding one event is
 * counted as malformed and skipped; unknown event types are counted and ignored. Gzip and zlib (the agent's
 * {@code deflate} request body) input is recognised by its first bytes and inflated on the fly.
 */
final class EventFileReader {

    /** A line longer than this is skipped as malformed without being held in memory. */
    static final int MAX_LINE_BYTES = 64 << 20;
    /** Longest error text kept (exception type and message). */
    static final int MAX_ERROR_TEXT = 200;
    /** Longest name kept; the agent truncates names to 1024 characters. */
    static final int MAX_NAME = 1024;
    private static final int CHUNK = 1 << 16;
    private static final int MAX_REASON = 120;
    private static final String AGENT_EVENTS_PREFIX = "agent.events.";

    /** Per event type, the fields the viewer reads; a map value names the wanted fields of a nested object. */
    private static final Map<String, Map<String, Object>> WANTED = new HashMap<String, Map<String, Object>>();

    static {
        Map<String, Object> transaction = spec("id", "parent_id", "trace_id", "name", "type", "outcome", "timestamp",
                "duration");
        Map<String, Object> span = spec("id", "parent_id", "trace_id", "transaction_id", "name", "type", "subtype",
                "action", "outcome", "timestamp", "start", "duration");
        Map<String, Object> error = spec("id", "parent_id", "trace_id", "transaction_id", "timestamp", "culprit");
        error.put("exception", spec("type", "message"));
        error.put("log", spec("message"));
        error.put("transaction", spec("name"));
        Map<String, Object> service = spec("name");
        service.put("agent", spec("name", "version"));
        Map<String, Object> metadata = spec();
        metadata.put("service", service);
        WANTED.put("transaction", transaction);
        WANTED.put("span", span);
        WANTED.put("error", error);
        WANTED.put("metricset", spec("samples"));
        WANTED.put("metadata", metadata);
    }

    private final JsonReader<Object> json = new DslJson<Object>(new DslJson.Settings<Object>()).newReader(new byte[0]);
    /** Names, types and ids shared by many events are kept once. */
    private final Map<String, String> shared = new HashMap<String, String>();
    private final EventLog log = new EventLog();
    private byte[] line = new byte[8192];
    private int length;
    private boolean tooLong;

    private final int maxLineBytes;

    private EventFileReader(int maxLineBytes) {
        this.maxLineBytes = maxLineBytes;
    }

    /** Reads the whole stream (plain, gzip or zlib NDJSON); the caller closes it. */
    static EventLog read(InputStream in) throws IOException {
        return read(in, MAX_LINE_BYTES);
    }

    static EventLog read(InputStream in, int maxLineBytes) throws IOException {
        EventFileReader reader = new EventFileReader(maxLineBytes);
        reader.readLines(decompressing(in));
        reader.resolveStartOffsets();
        return reader.log;
    }

    static InputStream decompressing(InputStream in) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(in, CHUNK);
        buffered.mark(2);
        int b0 = buffered.read();
        int b1 = buffered.read();
        buffered.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            return new GZIPInputStream(buffered, CHUNK);
        }
        if (b0 >= 0 && b1 >= 0 && (b0 & 0x0f) == 8 && ((b0 << 8) | b1) % 31 == 0) {
            return new InflaterInputStream(buffered);
        }
        return buffered;
    }

    private void readLines(InputStream in) throws IOException {
        byte[] chunk = new byte[CHUNK];
        long lineNumber = 0;
        int n;
        while ((n = in.read(chunk)) != -1) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    append(chunk, start, i - start);
                    handleLine(++lineNumber);
                    start = i + 1;
                }
            }
            append(chunk, start, n - start);
        }
        if (length > 0 || tooLong) {
            handleLine(++lineNumber);
        }
        log.lines = lineNumber;
    }

    private void append(byte[] chunk, int offset, int count) {
        if (tooLong || count == 0) {
            return;
        }
        if ((long) length + count > maxLineBytes) {
            tooLong = true;
            length = 0;
            return;
        }
        if (length + count > line.length) {
            byte[] bigger = new byte[Math.max(line.length * 2, length + count)];
            System.arraycopy(line, 0, bigger, 0, length);
            line = bigger;
        }
        System.arraycopy(chunk, offset, line, length, count);
        length += count;
    }

    private void handleLine(long lineNumber) {
        try {
            if (tooLong) {
                log.malformed(lineNumber, "longer than " + maxLineBytes + " bytes");
                return;
            }
            int start = 0;
            if (lineNumber == 1 && length >= 3 && (line[0] & 0xff) == 0xef && (line[1] & 0xff) == 0xbb
                    && (line[2] & 0xff) == 0xbf) {
                start = 3;
            }
            int end = length;
            while (end > start && isWhitespace(line[end - 1])) {
                end--;
            }
            while (start < end && isWhitespace(line[start])) {
                start++;
            }
            if (start == end) {
                log.blankLines++;
                return;
            }
            parseLine(lineNumber, start, end);
        } finally {
            length = 0;
            tooLong = false;
        }
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }

    private void parseLine(long lineNumber, int start, int end) {
        byte[] bytes = line;
        if (start > 0) {
            bytes = new byte[end - start];
            System.arraycopy(line, start, bytes, 0, end - start);
            end -= start;
        }
        String eventType;
        Map<String, Object> event = null;
        try {
            json.process(bytes, end);
            if (json.getNextToken() != '{') {
                log.malformed(lineNumber, "not a JSON object");
                return;
            }
            if (json.getNextToken() == '}') {
                log.malformed(lineNumber, "empty object");
                return;
            }
            eventType = json.readKey();
            Map<String, Object> wanted = WANTED.get(eventType);
            byte next;
            if (wanted == null) {
                next = json.skip();
            } else if (json.last() != '{') {
                log.malformed(lineNumber, "\"" + eventType + "\" is not an object");
                return;
            } else {
                event = fields(wanted);
                next = json.getNextToken();
            }
            if (next != '}') {
                log.malformed(lineNumber, next == ',' ? "more than one event in one line" : "expected '}'");
                return;
            }
            if (json.getCurrentIndex() < end) {
                log.malformed(lineNumber, "text after the JSON object");
                return;
            }
        } catch (IOException e) {
            log.malformed(lineNumber, reason(e));
            return;
        } catch (RuntimeException e) {
            log.malformed(lineNumber, reason(e));
            return;
        }
        if (event == null) {
            log.addUnknown(eventType.length() > 40 ? eventType.substring(0, 40) : eventType);
            return;
        }
        if (eventType.equals("transaction")) {
            log.transactions++;
            log.events.add(transaction(lineNumber, event));
        } else if (eventType.equals("span")) {
            log.spans++;
            log.events.add(span(lineNumber, event));
        } else if (eventType.equals("error")) {
            log.errors++;
            log.events.add(error(lineNumber, event));
        } else if (eventType.equals("metricset")) {
            log.metricsets++;
            metricset(event);
        } else {
            log.metadataLines++;
            metadata(event);
        }
    }

    /**
     * Reads the object the reader is at (its '{' is the current token) into a map of only the wanted fields, skipping
     * every other value unparsed (stack traces, contexts). A wanted field whose spec is a map and whose value is an
     * object is read the same way, one level down; other wanted values are read whole. Afterwards the object's '}' is
     * the current token.
     */
    private Map<String, Object> fields(Map<String, Object> wanted) throws IOException {
        Map<String, Object> result = new HashMap<String, Object>();
        if (json.getNextToken() == '}') {
            return result;
        }
        while (true) {
            String key = json.readKey();
            Object spec = wanted.get(key);
            byte next;
            if (spec == null) {
                next = json.skip();
            } else {
                if (spec instanceof Map && json.last() == '{') {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> nested = (Map<String, Object>) spec;
                    result.put(key, fields(nested));
                } else {
                    result.put(key, ObjectConverter.deserializeObject(json));
                }
                next = json.getNextToken();
            }
            if (next == '}') {
                return result;
            }
            if (next != ',') {
                throw json.newParseError("Expecting ',' or '}'");
            }
            json.getNextToken();
        }
    }

    private static String reason(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        if (newline >= 0) {
            message = message.substring(0, newline);
        }
        return message.length() > MAX_REASON ? message.substring(0, MAX_REASON) + "..." : message;
    }

    private Event transaction(long lineNumber, Map<String, Object> t) {
        return new Event(Event.Kind.TRANSACTION, lineNumber, string(t, "id"), shared(string(t, "parent_id")),
                shared(string(t, "trace_id")), null, shared(name(string(t, "name"))), shared(string(t, "type")), null,
                null, shared(string(t, "outcome")), timestamp(t), Double.NaN, duration(t), null);
    }

    private Event span(long lineNumber, Map<String, Object> s) {
        return new Event(Event.Kind.SPAN, lineNumber, string(s, "id"), shared(string(s, "parent_id")),
                shared(string(s, "trace_id")), shared(string(s, "transaction_id")), shared(name(string(s, "name"))),
                shared(string(s, "type")), shared(string(s, "subtype")), shared(string(s, "action")),
                shared(string(s, "outcome")), timestamp(s), number(s, "start"), duration(s), null);
    }

    private Event error(long lineNumber, Map<String, Object> e) {
        Map<String, Object> transaction = object(e, "transaction");
        return new Event(Event.Kind.ERROR, lineNumber, string(e, "id"), shared(string(e, "parent_id")),
                shared(string(e, "trace_id")), shared(string(e, "transaction_id")), errorText(e), null, null, null,
                null, timestamp(e), Double.NaN, Double.NaN,
                transaction == null ? null : shared(name(string(transaction, "name"))));
    }

    /** "exception.type: exception.message", else the log message, else the culprit, else null. */
    static String errorText(Map<String, Object> error) {
        String text = null;
        Map<String, Object> exception = object(error, "exception");
        if (exception != null) {
            String type = string(exception, "type");
            String message = string(exception, "message");
            if (type != null && message != null) {
                text = type + ": " + message;
            } else {
                text = type != null ? type : message;
            }
        }
        if (text == null) {
            Map<String, Object> logRecord = object(error, "log");
            text = logRecord == null ? null : string(logRecord, "message");
        }
        if (text == null) {
            text = string(error, "culprit");
        }
        if (text == null) {
            return null;
        }
        text = text.replace('\n', ' ').replace('\r', ' ');
        return text.length() > MAX_ERROR_TEXT ? text.substring(0, MAX_ERROR_TEXT) + "..." : text;
    }

    private void metricset(Map<String, Object> metricset) {
        Map<String, Object> samples = object(metricset, "samples");
        if (samples == null) {
            return;
        }
        for (Map.Entry<String, Object> sample : samples.entrySet()) {
            if (sample.getKey().startsWith(AGENT_EVENTS_PREFIX) && sample.getValue() instanceof Map) {
                @SuppressWarnings("unchecked")
                Object value = ((Map<String, Object>) sample.getValue()).get("value");
                if (value instanceof Number) {
                    log.addHealthSample(sample.getKey(), ((Number) value).doubleValue());
                }
            }
        }
    }

    private void metadata(Map<String, Object> metadata) {
        Map<String, Object> service = object(metadata, "service");
        if (service == null) {
            log.addService("?");
            return;
        }
        String name = string(service, "name");
        Map<String, Object> agent = object(service, "agent");
        String agentName = agent == null ? null : string(agent, "name");
        String agentVersion = agent == null ? null : string(agent, "version");
        log.addService((name == null ? "?" : name) + " (" + (agentName == null ? "?" : agentName) + " "
                + (agentVersion == null ? "?" : agentVersion) + ")");
    }

    /** RUM spans carry a start offset from their transaction instead of a timestamp. */
    private void resolveStartOffsets() {
        Map<String, Event> transactions = null;
        for (Event event : log.events) {
            if (event.kind != Event.Kind.SPAN || event.hasTimestamp() || Double.isNaN(event.startOffsetMillis)
                    || event.transactionId == null) {
                continue;
            }
            if (transactions == null) {
                transactions = new HashMap<String, Event>();
                for (Event e : log.events) {
                    if (e.kind == Event.Kind.TRANSACTION && e.id != null && !transactions.containsKey(e.id)) {
                        transactions.put(e.id, e);
                    }
                }
            }
            Event transaction = transactions.get(event.transactionId);
            if (transaction != null && transaction.hasTimestamp()) {
                event.timestampMicros = transaction.timestampMicros + Math.round(event.startOffsetMillis * 1000.0);
            }
        }
    }

    private static Map<String, Object> spec(String... fields) {
        Map<String, Object> spec = new HashMap<String, Object>();
        for (String field : fields) {
            spec.put(field, Boolean.TRUE);
        }
        return spec;
    }

    private String shared(String s) {
        if (s == null) {
            return null;
        }
        String existing = shared.get(s);
        if (existing != null) {
            return existing;
        }
        if (shared.size() < 1_000_000) {
            shared.put(s, s);
        }
        return s;
    }

    private static String name(String name) {
        return name != null && name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
    }

    static String string(Map<String, Object> map, String key) {
        Object value = map.get(key);
        return value instanceof String ? (String) value : null;
    }

    static double number(Map<String, Object> map, String key) {
        Object value = map.get(key);
        return value instanceof Number ? ((Number) value).doubleValue() : Double.NaN;
    }

    /** A duration in milliseconds; NaN when absent, negative or not finite. */
    private static double duration(Map<String, Object> map) {
        double duration = number(map, "duration");
        return duration >= 0 && duration < Double.POSITIVE_INFINITY ? duration : Double.NaN;
    }

    /** Epoch microseconds; unknown when absent or not a number that fits. */
    private static long timestamp(Map<String, Object> map) {
        double value = number(map, "timestamp");
        if (Double.isNaN(value) || Math.abs(value) >= 9.0e18) {
            return Event.UNKNOWN_TIME;
        }
        Object raw = map.get("timestamp");
        return raw instanceof Long ? (Long) raw : (long) value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> map, String key) {
        Object value = map.get(key);
        return value instanceof Map ? (Map<String, Object>) value : null;
    }
}
