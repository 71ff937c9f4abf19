package dev.apmagent.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.metrics.JvmMetrics;
import dev.apmagent.metrics.MetricName;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every serializer's output validates against the intake schemas, for ordinary and hostile strings. */
class SerializersTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final IntakeSchemaValidator validator = IntakeSchemaValidator.fromSharedDir();
    private final ModelCodec codec = new ModelCodec();
    private final JsonHelper json = new JsonHelper();

    static Stream<String> edgeCaseStrings() {
        char[] longText = new char[5000];
        Arrays.fill(longText, 'x');
        return Stream.of(
                "plain",
                "",
                "quote \" backslash \\ slash /",
                "control \u0000 \u0001 \u001f \b \f \n \r \t end",
                "non-BMP \uD83D\uDE00 \uD834\uDD1E",
                "lone high \uD800 then text",
                "lone low \uDC00 at start",
                "high at end \uD83D",
                "reversed pair \uDE00\uD83D",
                "latin \u00e4\u00f6\u00fc \u20ac \u2028 \u2029 \uFFFF",
                "html </script><script>",
                new String(longText));
    }

    @ParameterizedTest
    @MethodSource("edgeCaseStrings")
    void transactionValidates(String text) throws Exception {
        String line = serialize(TestEvents.transaction(text));
        validator.assertValidLine(line);
        JsonNode tx = MAPPER.readTree(line).get("transaction");
        assertEquals(expectedText(text, 1024), tx.get("name").asText());
        assertEquals(expectedText(text, 1024), tx.at("/context/request/headers/user-agent").asText());
    }

    @ParameterizedTest
    @MethodSource("edgeCaseStrings")
    void spanValidates(String text) throws Exception {
        String line = serialize(TestEvents.span(text));
        validator.assertValidLine(line);
        JsonNode span = MAPPER.readTree(line).get("span");
        assertEquals(expectedText(text, 1024), span.get("name").asText());
        assertEquals(expectedText("SELECT * FROM t WHERE name = '" + text + "'", 10_000), span.at("/context/db/statement").asText());
    }

    @ParameterizedTest
    @MethodSource("edgeCaseStrings")
    void errorValidates(String text) throws Exception {
        String line = serialize(TestEvents.error(text));
        validator.assertValidLine(line);
        JsonNode error = MAPPER.readTree(line).get("error");
        assertEquals(expectedText("failed: " + text, 10_000), error.at("/exception/message").asText());
    }

    /** Strings, string builders (what events hold) and any other char sequence give the same JSON, truncated alike. */
    @ParameterizedTest
    @MethodSource("edgeCaseStrings")
    void everyKindOfCharSequenceEncodesTheSame(String text) {
        for (int max : new int[] {1024, 7, 1}) {
            String expected = encoded(text, max);
            assertEquals(expected, encoded(new StringBuilder("ab").append(text).delete(0, 2), max), "StringBuilder");
            assertEquals(expected, encoded(java.nio.CharBuffer.wrap(text), max), "CharBuffer");
        }
    }

    private static String encoded(CharSequence s, int max) {
        JsonHelper h = new JsonHelper();
        h.string(s, max);
        return new String(h.buffer(), 0, h.size(), StandardCharsets.UTF_8);
    }

    /** What a string becomes: lone surrogates replaced, cut at max chars without splitting a pair. */
    private static String expectedText(String s, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < max; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                if (i + 1 >= max) {
                    break;
                }
                sb.append(c).append(s.charAt(i + 1));
                i++;
            } else if (Character.isSurrogate(c)) {
                sb.append('\uFFFD');
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Repeated, alternating and new doubles read back as the values written, whatever the last one was. */
    @Test
    void doublesInAnyOrderAreWrittenExactly() throws Exception {
        double[] values = {1.0, 1.0, 0.5, 1.0, 0.1234, 0.1234, 1e-7, 123456789.25, -0.0, 0.0, 1.0, Double.NaN, 1.0, 3.0e300, 0.5};
        json.reset();
        json.startArray();
        for (double v : values) {
            json.number(v);
        }
        json.endArray();
        JsonNode array = new ObjectMapper().readTree(new String(json.buffer(), 0, json.size(), StandardCharsets.UTF_8));
        assertEquals(values.length, array.size());
        for (int i = 0; i < values.length; i++) {
            double expected = Double.isNaN(values[i]) ? 0 : values[i];
            assertEquals(expected, array.get(i).asDouble(), 0.0, "element " + i + " of " + array);
        }
    }

    @Test
    void transactionHasTheFieldsTheUiNeeds() throws Exception {
        JsonNode tx = MAPPER.readTree(serialize(TestEvents.transaction("GET /x"))).get("transaction");
        assertEquals("0af7651916cd43dd8448eb211c80319c", tx.get("trace_id").asText());
        assertEquals("b7ad6b7169203331", tx.get("id").asText());
        assertEquals(1_795_414_344_760_019L, tx.get("timestamp").asLong());
        assertEquals("12.345", tx.get("duration").toString());
        assertEquals("success", tx.get("outcome").asText());
        assertEquals("HTTP 2xx", tx.get("result").asText());
        assertEquals(3, tx.at("/span_count/started").asInt());
        assertEquals(1, tx.at("/span_count/dropped").asInt());
        assertEquals(0.5, tx.get("sample_rate").asDouble());
        assertTrue(tx.get("sampled").asBoolean());
        assertEquals("https://example.com:8443/search/GET /x?q=GET /x", tx.at("/context/request/url/full").asText());
        assertEquals(8443, tx.at("/context/request/url/port").asInt());
        assertEquals(2, tx.at("/context/request/headers/accept").size(), "repeated header becomes an array");
        assertEquals("v", tx.at("/context/request/headers").get("x-\"odd\\name\n").asText());
        assertEquals(200, tx.at("/context/response/status_code").asInt());
        assertEquals("Servlet API", tx.at("/context/service/framework/name").asText());
    }

    /**
     * Header values copied as bytes from a container's buffer (ISO-8859-1, as Tomcat reads them): every byte value,
     * control characters and bytes from 0x80 included, comes out as valid UTF-8 and valid JSON, each byte as the
     * character of the same number.
     */
    @Test
    void headerValuesCopiedAsBytesAreEscapedIntoValidJson() throws Exception {
        byte[] every = new byte[256];
        for (int i = 0; i < every.length; i++) {
            every[i] = (byte) i;
        }
        Transaction t = TestEvents.transaction("GET /x");
        t.context().request().headers().addLatin1("x-bytes", every, 0, every.length);
        t.context().request().cookies().addLatin1("theme", every, 0x7e, 4);
        t.context().response().headers().addLatin1("x-bytes", every, 0, every.length);
        String line = serialize(t);
        validator.assertValidLine(line);
        JsonNode tx = MAPPER.readTree(line).get("transaction");
        String expected = new String(every, StandardCharsets.ISO_8859_1);
        assertEquals(expected, tx.at("/context/request/headers/x-bytes").asText());
        assertEquals(expected, tx.at("/context/response/headers/x-bytes").asText());
        assertEquals("~\u007f\u0080\u0081", tx.at("/context/request/cookies/theme").asText());
        assertTrue(line.contains("\\u0000\\u0001") && line.contains("\\t"), "control characters escaped");
        assertFalse(line.chars().anyMatch(c -> c < 0x20), "no raw control character");
    }

    @Test
    void unsampledTransactionHasNoContext() throws Exception {
        String line = serialize(TestEvents.unsampledTransaction());
        validator.assertValidLine(line);
        JsonNode tx = MAPPER.readTree(line).get("transaction");
        assertFalse(tx.get("sampled").asBoolean());
        assertFalse(tx.has("context"));
        assertTrue(line.contains("\"duration\":0.000,"), line);
    }

    @Test
    void spanHasDbDestinationAndTarget() throws Exception {
        String line = serialize(TestEvents.span("q"));
        JsonNode span = MAPPER.readTree(line).get("span");
        assertEquals("b7ad6b7169203331", span.get("parent_id").asText());
        assertEquals("b7ad6b7169203331", span.get("transaction_id").asText());
        assertEquals("db", span.get("type").asText());
        assertEquals("postgresql", span.get("subtype").asText());
        assertEquals("query", span.get("action").asText());
        assertTrue(line.contains("\"duration\":1.500,"), line);
        assertEquals("failure", span.get("outcome").asText());
        assertEquals(7, span.at("/context/db/rows_affected").asInt());
        assertEquals("postgresql/orders", span.at("/context/destination/service/resource").asText());
        assertEquals(5432, span.at("/context/destination/port").asInt());
        assertEquals("postgresql", span.at("/context/service/target/type").asText());
        assertEquals(503, span.at("/context/http/response/status_code").asInt());
    }

    @Test
    void errorHasExceptionStackTraceCausesAndCulprit() throws Exception {
        ErrorEvent e = TestEvents.error("boom");
        StackTraceElement top = e.exception().getStackTrace()[0];
        JsonNode error = MAPPER.readTree(serialize(e)).get("error");
        assertEquals("1234567890abcdef0fedcba987654321", error.get("id").asText());
        assertEquals("b7ad6b7169203331", error.get("transaction_id").asText());
        assertEquals("b7ad6b7169203331", error.get("parent_id").asText());
        assertEquals("request", error.at("/transaction/type").asText());
        assertEquals("java.lang.RuntimeException", error.at("/exception/type").asText());
        assertFalse(error.at("/exception/handled").asBoolean());
        assertEquals(top.getClassName(), error.at("/exception/stacktrace/0/classname").asText());
        assertEquals(top.getLineNumber(), error.at("/exception/stacktrace/0/lineno").asInt());
        assertEquals(2, error.at("/exception/cause").size());
        assertEquals("java.lang.IllegalStateException", error.at("/exception/cause/1/type").asText());
        assertEquals(top.getClassName() + "." + top.getMethodName() + "(" + top.getFileName() + ":" + top.getLineNumber() + ")",
                error.get("culprit").asText());
    }

    @Test
    void errorWithoutTraceOmitsTraceIdsAndHonoursTheFrameLimit() throws Exception {
        String line = serialize(TestEvents.errorWithoutTrace());
        validator.assertValidLine(line);
        JsonNode error = MAPPER.readTree(line).get("error");
        assertFalse(error.has("trace_id") || error.has("parent_id") || error.has("transaction_id"));
        assertTrue(error.at("/exception/stacktrace").size() <= 5);
    }

    @Test
    void causeCyclesAreCut() throws Exception {
        ErrorEvent e = new ErrorEvent();
        CyclicException a = new CyclicException("a");
        CyclicException b = new CyclicException("b");
        a.cause = b;
        b.cause = a;
        e.set(1, 2, 3, a, true, 3);
        String line = serialize(e);
        validator.assertValidLine(line);
        assertEquals(1, MAPPER.readTree(line).at("/error/exception/cause").size());
    }

    private static final class CyclicException extends RuntimeException {
        Throwable cause;

        CyclicException(String m) {
            super(m);
        }

        @Override
        public synchronized Throwable getCause() {
            return cause;
        }
    }

    @Test
    void metadataValidatesAndCarriesWhatTheElasticAgentSends() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.SERVICE_NAME.key(), "my service (test)");
        options.put(CoreOptions.SERVICE_VERSION.key(), "1.2.3");
        options.put(CoreOptions.ENVIRONMENT.key(), "test");
        options.put(ReporterOptions.INCLUDE_PROCESS_ARGS.key(), Boolean.TRUE);
        Config config = Config.ofParsed(options);
        String line = new String(MetadataSerializer.serialize(MetadataSerializer.detect(config, true)), StandardCharsets.UTF_8);
        assertTrue(line.endsWith("}\n"));
        validator.assertValidNdjson(line);
        JsonNode m = MAPPER.readTree(line).get("metadata");
        assertEquals("my service -test-", m.at("/service/name").asText(), "the one service name rule: ServiceNames.sanitize");
        assertEquals("java", m.at("/service/agent/name").asText());
        assertEquals(MetadataSerializer.agentVersion(), m.at("/service/agent/version").asText());
        assertFalse(m.at("/service/agent/version").asText().contains("${"));
        assertEquals(ProcessHandle.current().pid(), m.at("/process/pid").asLong());
        assertEquals(ProcessHandle.current().parent().get().pid(), m.at("/process/ppid").asLong());
        assertTrue(m.at("/process/argv").isArray());

        // every field the Elastic agent put in its metadata (minus ones we deliberately leave out) is there too
        Path captured = IntakeSchemaValidator.sharedDirOrSkip().resolve("spec/intake-v2/samples-captured/elastic-java-agent-1.52.0.ndjson");
        JsonNode elastic = MAPPER.readTree(Files.readAllLines(captured, StandardCharsets.UTF_8).get(0)).get("metadata");
        TreeSet<String> theirs = paths(elastic, "");
        TreeSet<String> ours = paths(m, "");
        theirs.remove("/service/agent/activation_method");
        theirs.removeAll(ours);
        assertTrue(theirs.isEmpty(), "metadata fields the Elastic agent sends and we do not: " + theirs);
    }

    private static TreeSet<String> withoutIndices(TreeSet<String> paths) {
        TreeSet<String> out = new TreeSet<String>();
        for (String p : paths) {
            out.add(p.replaceAll("/\\d+", ""));
        }
        return out;
    }

    private static TreeSet<String> paths(JsonNode node, String prefix) {
        TreeSet<String> out = new TreeSet<String>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String p = prefix + "/" + e.getKey();
            if (e.getValue().isObject()) {
                out.addAll(paths(e.getValue(), p));
            } else if (e.getValue().isArray()) {
                for (int i = 0; i < e.getValue().size(); i++) {
                    JsonNode item = e.getValue().get(i);
                    if (item.isObject()) {
                        out.addAll(paths(item, p + "/" + i));
                    }
                }
                out.add(p);
            } else if (!e.getValue().isNull()) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Field by field against what the Elastic Java agent 1.52.0 sent for the same kinds of events: everything it sends
     * we send too, except the listed fields our model does not carry (yet).
     */
    @Test
    void eventsCarryTheFieldsTheElasticAgentSends() throws Exception {
        Path captured = IntakeSchemaValidator.sharedDirOrSkip().resolve("spec/intake-v2/samples-captured/elastic-java-agent-1.52.0.ndjson");
        Map<String, TreeSet<String>> theirs = new HashMap<String, TreeSet<String>>();
        for (String line : Files.readAllLines(captured, StandardCharsets.UTF_8)) {
            JsonNode root = MAPPER.readTree(line);
            String type = root.fieldNames().next();
            theirs.computeIfAbsent(type, k -> new TreeSet<String>()).addAll(paths(root.get(type), ""));
        }
        Map<String, List<String>> notInOurModel = new HashMap<String, List<String>>();
        // span stack traces (span_stack_trace_min_duration) and the empty tags / dropped_spans_stats objects
        notInOurModel.put("span", Arrays.asList("/stacktrace"));
        notInOurModel.put("transaction", Arrays.asList("/dropped_spans_stats"));
        notInOurModel.put("error", Arrays.asList("/exception/stacktrace/module"));
        Map<String, String> ours = new HashMap<String, String>();
        ours.put("transaction", serialize(TestEvents.transaction("t")));
        ours.put("span", serialize(TestEvents.span("s")));
        ours.put("error", serialize(TestEvents.error("e")));
        for (Map.Entry<String, String> e : ours.entrySet()) {
            TreeSet<String> missing = withoutIndices(theirs.get(e.getKey()));
            missing.removeAll(withoutIndices(paths(MAPPER.readTree(e.getValue()).get(e.getKey()), "")));
            missing.removeIf(p -> p.startsWith("/context/tags"));
            for (String known : notInOurModel.getOrDefault(e.getKey(), new ArrayList<String>())) {
                missing.removeIf(p -> p.startsWith(known));
            }
            assertTrue(missing.isEmpty(), e.getKey() + ": fields the Elastic agent sends and we do not: " + missing);
        }
    }

    @Test
    void jvmMetricsetsValidateAndUseTheElasticNames() throws Exception {
        List<String> lines = new ArrayList<String>();
        JsonHelper h = new JsonHelper();
        MetricSetSerializer serializer = new MetricSetSerializer(h, line -> lines.add(new String(line.buffer(), 0, line.size(), StandardCharsets.UTF_8)));
        new JvmMetrics().collect(1_795_414_345_649_000L, serializer);
        serializer.startSet(1L, null, null);
        serializer.endSet(); // empty set: discarded
        serializer.startSet(1L, "name", "weird \"pool\"");
        serializer.sample(MetricName.of("x.nan"), Double.NaN);
        serializer.sample(MetricName.of("x.one"), 1.5);
        serializer.endSet();
        assertTrue(lines.size() > 3, lines.toString());
        TreeSet<String> names = new TreeSet<String>();
        for (String line : lines) {
            validator.assertValidLine(line.trim());
            Iterator<String> it = MAPPER.readTree(line).at("/metricset/samples").fieldNames();
            it.forEachRemaining(names::add);
        }
        assertFalse(names.contains("x.nan"));
        for (String expected : new String[] {"jvm.memory.heap.used", "jvm.memory.heap.committed", "jvm.memory.heap.max",
                "jvm.memory.non_heap.used", "jvm.memory.non_heap.committed", "jvm.thread.count", "jvm.gc.count", "jvm.gc.time",
                "jvm.gc.alloc", "jvm.memory.heap.pool.used", "jvm.memory.non_heap.pool.used", "system.cpu.total.norm.pct",
                "system.process.cpu.total.norm.pct", "system.memory.total", "system.memory.actual.free",
                "system.process.memory.size", "jvm.fd.used", "jvm.fd.max"}) {
            assertTrue(names.contains(expected), "missing metric " + expected + " in " + names);
        }
        // and every JVM/system metric name the Elastic agent sent is one we send
        Path captured = IntakeSchemaValidator.sharedDirOrSkip().resolve("spec/intake-v2/samples-captured/elastic-java-agent-1.52.0.ndjson");
        for (String line : Files.readAllLines(captured, StandardCharsets.UTF_8)) {
            if (line.startsWith("{\"metricset\"")) {
                MAPPER.readTree(line).at("/metricset/samples").fieldNames().forEachRemaining(n -> {
                    if ((n.startsWith("jvm.") || n.startsWith("system.")) && !n.startsWith("system.process.cgroup")) {
                        assertTrue(names.contains(n), "Elastic sends " + n + ", we do not");
                    }
                });
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, -1, 9, 10, -10, 99, 100, 1234567890123L, -987654321L, Long.MAX_VALUE, Long.MIN_VALUE})
    void longsAreWrittenAsTheirDecimalText(long n) {
        JsonHelper h = new JsonHelper();
        h.number(n);
        assertEquals(Long.toString(n), new String(h.buffer(), 0, h.size(), StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource({"0, 0.000", "-5, 0.000", "999, 0.000", "1000, 0.001", "12345678, 12.345", "1000000000, 1000.000",
            "86400000000000, 86400000.000", "1999999, 1.999"})
    void durationsAreMillisecondsWithMicrosecondPrecision(long nanos, String expected) {
        JsonHelper h = new JsonHelper();
        h.durationMillis(nanos);
        assertEquals(expected, new String(h.buffer(), 0, h.size(), StandardCharsets.UTF_8));
    }

    @Test
    void truncationNeverSplitsASurrogatePair() throws Exception {
        char[] a = new char[1023];
        Arrays.fill(a, 'a');
        String s = new String(a) + "\uD83D\uDE00";
        JsonHelper h = new JsonHelper();
        h.string(s);
        String out = MAPPER.readTree(new String(h.buffer(), 0, h.size(), StandardCharsets.UTF_8)).asText();
        assertEquals(1023, out.length());
        JsonHelper h2 = new JsonHelper();
        h2.string("a" + s.substring(1023) + "b", 3);
        assertEquals("a\uD83D\uDE00", MAPPER.readTree(new String(h2.buffer(), 0, h2.size(), StandardCharsets.UTF_8)).asText());
    }

    private String serialize(Object event) {
        json.reset();
        codec.serialize(event, json);
        String line = new String(json.buffer(), 0, json.size(), StandardCharsets.UTF_8);
        codec.release(event);
        assertTrue(line.endsWith("\n"), "a line ends with a newline");
        assertEquals(1, line.chars().filter(c -> c == '\n').count(), "exactly one newline");
        return line.substring(0, line.length() - 1);
    }
}
