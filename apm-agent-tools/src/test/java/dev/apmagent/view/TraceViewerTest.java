package dev.apmagent.view;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceViewerTest {

    /** 2026-01-01T00:00:00Z in epoch microseconds. */
    static final long T0 = 1_767_225_600_000_000L;
    static final String METADATA = "{\"metadata\":{\"service\":{\"name\":\"shop\",\"agent\":{\"name\":\"apm-agent\","
            + "\"version\":\"0.1.0\"}}}}";

    @TempDir
    Path dir;

    // ------------------------------------------------------------------ one trace: nesting, bars, errors

    @Test
    void nestsSpansByParentAndErrorsUnderTheirSpanInStartOrder() throws IOException {
        // file order deliberately differs from the tree: children before parents, the later sibling first
        Result r = view(file(METADATA,
                span("cccc", "aaaa", "trace1", "aaaa", "second child", "custom", null, null, T0 + 50_000, 40.0, "success"),
                span("bbb2", "bbbb", "trace1", "aaaa", "grand child", "db", "mysql", "query", T0 + 15_000, 10.0, "failure"),
                error("eeee", "bbb2", "trace1", "aaaa", "java.sql.SQLException", "table missing", T0 + 20_000),
                span("bbbb", "aaaa", "trace1", "aaaa", "first child", "external", "http", null, T0 + 10_000, 30.0, "success"),
                transaction("aaaa", null, "trace1", "GET /orders", "request", T0, 100.0, "success")),
                "--ascii");

        assertEquals(0, r.code, r.err);
        List<String> rows = r.rowsOf("trace1");
        assertEquals(List.of(
                "GET /orders",
                "  first child",
                "    grand child",
                "      ! error java.sql.SQLException: table missing",
                "  second child"), names(rows));
        assertRow(rows.get(0), "GET /orders", "request", "100.000 ms", "success",
                "|########################################|");
        // 10 ms into a 100 ms trace is cell 4; 30 ms are 12 cells
        assertRow(rows.get(1), "  first child", "external/http", "30.000 ms", "success",
                "|    ############                        |");
        assertRow(rows.get(2), "    grand child", "db/mysql/query", "10.000 ms", "failure",
                "|      ####                              |");
        assertTrue(rows.get(3).endsWith("|        !                               |"), rows.get(3));
        assertRow(rows.get(4), "  second child", "custom", "40.000 ms", "success",
                "|                    ################    |");
        assertTrue(r.out.contains("trace trace1  2026-01-01T00:00:00Z  100.000 ms  1 transaction, 3 spans, 1 error"),
                r.out);
        assertFalse(r.out.contains(Waterfall.ORPHANS_MARKER), r.out);
    }

    @Test
    void barsUseBlocksUnlessAsciiIsAskedOrTheOutputCannotShowThem() throws IOException {
        Path file = file(METADATA, transaction("aaaa", null, "t", "tx", "request", T0, 1.0, "success"));
        String full = "|" + "\u2588".repeat(Bar.WIDTH) + "|";
        String hashes = "|" + "#".repeat(Bar.WIDTH) + "|";
        Result blocks = run(true, file.toString());
        assertTrue(blocks.out.contains(full), blocks.out);
        Result ascii = run(true, "--ascii", file.toString());
        assertTrue(ascii.out.contains(hashes) && !ascii.out.contains("\u2588"), ascii.out);
        Result plainTerminal = run(false, file.toString());
        assertTrue(plainTerminal.out.contains(hashes) && !plainTerminal.out.contains("\u2588"), plainTerminal.out);
    }

    @Test
    void spansWithOnlyAStartOffsetArePlacedRelativeToTheirTransaction() throws IOException {
        // RUM agents send "start" (ms from the transaction's start) instead of a timestamp
        Result r = view(file(METADATA,
                transaction("aaaa", null, "t", "page-load", "page-load", T0, 100.0, "success"),
                "{\"span\":{\"id\":\"s1\",\"parent_id\":\"aaaa\",\"transaction_id\":\"aaaa\",\"trace_id\":\"t\","
                        + "\"name\":\"fetch\",\"type\":\"external\",\"start\":50,\"duration\":25}}"), "--ascii");
        assertRow(r.rowsOf("t").get(1), "  fetch", "external", "25.000 ms", "?",
                "|                    ##########          |");
    }

    @Test
    void errorWithoutParentIdGoesUnderItsTransaction() throws IOException {
        Result r = view(file(METADATA,
                transaction("aaaa", null, "t", "tx", "request", T0, 10.0, "failure"),
                error("eeee", null, "t", "aaaa", "java.io.IOException", "boom", T0 + 5_000)));
        assertEquals(List.of("tx", "  ! error java.io.IOException: boom"), names(r.rowsOf("t")));
    }

    // ------------------------------------------------------------------ several traces

    @Test
    void tracesAreSortedByStartTimeAndLimited() throws IOException {
        Path file = file(METADATA,
                transaction("t3tx", null, "third", "late", "request", T0 + 3_000_000, 5.0, "success"),
                transaction("t1tx", null, "first", "early", "request", T0, 5.0, "success"),
                span("t1sp", "t1tx", "first", "t1tx", "query", "db", null, null, T0 + 1_000, 1.0, "success"),
                transaction("t2tx", null, "second", "middle", "request", T0 + 1_000_000, 5.0, "success"));

        Result all = view(file);
        assertEquals(List.of("trace first", "trace second", "trace third"), all.traceHeaders());
        assertTrue(all.out.contains(file + ": 3 traces, showing 3"), all.out);

        Result limited = view(file, "--limit", "2");
        assertEquals(List.of("trace first", "trace second"), limited.traceHeaders());
        assertTrue(limited.out.contains("... 1 more trace not shown"), limited.out);
        // the summary still covers the whole file
        assertTrue(limited.out.contains("3 transactions, 1 span"), limited.out);

        Result summaryOnly = view(file, "--limit=0");
        assertEquals(List.of(), summaryOnly.traceHeaders());
        assertTrue(summaryOnly.out.contains("summary"), summaryOnly.out);

        Result one = view(file, "--trace", "SECOND");
        assertEquals(0, one.code);
        assertEquals(List.of("trace second"), one.traceHeaders());
        assertEquals(List.of("middle"), names(one.rowsOf("second")));
    }

    @Test
    void defaultLimitIsTwenty() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(METADATA);
        for (int i = 0; i < 25; i++) {
            lines.add(transaction("tx" + i, null, String.format("trace%02d", i), "tx", "request", T0 + i * 1000L, 1.0,
                    "success"));
        }
        Result r = view(file(lines.toArray(new String[0])));
        assertEquals(20, r.traceHeaders().size());
        assertEquals("trace trace19", r.traceHeaders().get(19));
        assertTrue(r.out.contains("... 5 more traces not shown (--limit 25 shows all"), r.out);
    }

    // ------------------------------------------------------------------ orphans and odd trees

    @Test
    void orphansAreShownUnderAMarkerNotDropped() throws IOException {
        Result r = view(file(METADATA,
                transaction("aaaa", null, "t", "tx", "request", T0, 10.0, "success"),
                span("s1", "aaaa", "t", "aaaa", "kept", "db", null, null, T0 + 1_000, 1.0, "success"),
                span("s2", "gone", "t", "gone", "lost parent", "db", null, null, T0 + 2_000, 1.0, "success"),
                span("s3", "s2", "t", "gone", "child of orphan", "db", null, null, T0 + 2_500, 0.1, "success"),
                error("e1", "nowhere", "t", null, "E", "lost error", T0 + 3_000),
                // a transaction continuing a trace from another service is a root, not an orphan
                transaction("bbbb", "upstream", "u", "downstream", "request", T0 + 5_000_000, 3.0, "success")));

        assertEquals(List.of("tx", "  kept", Waterfall.ORPHANS_MARKER, "  lost parent", "    child of orphan",
                "  ! error E: lost error"), names(r.rowsOf("t")));
        assertEquals(List.of("downstream"), names(r.rowsOf("u")));
    }

    @Test
    void eventsNamingNoParentAreRootsNotOrphans() throws IOException {
        Result r = view(file(METADATA,
                transaction("aaaa", null, "t", "tx", "request", T0, 10.0, "success"),
                span("s1", null, "t", null, "parentless", "db", null, null, T0 + 2_000, 1.0, "success"),
                "{\"error\":{\"id\":\"e1\",\"trace_id\":\"t\",\"timestamp\":" + (T0 + 3_000)
                        + ",\"exception\":{\"message\":\"outside\"}}}"));
        assertEquals(List.of("tx", "parentless", "! error outside"), names(r.rowsOf("t")));
    }

    @Test
    void aTraceWithoutItsTransactionIsAllOrphans() throws IOException {
        Result r = view(file(METADATA,
                span("s1", "missing", "t", "missing", "a", "db", null, null, T0, 2.0, "success"),
                span("s2", "s1", "t", "missing", "b", "db", null, null, T0 + 500, 1.0, "success")));
        assertEquals(List.of(Waterfall.ORPHANS_MARKER, "  a", "    b"), names(r.rowsOf("t")));
        assertTrue(r.out.contains("0 transactions, 2 spans"), r.out);
    }

    @Test
    void parentCyclesAreShownOnceUnderTheOrphansMarker() throws IOException {
        Result r = view(file(METADATA,
                span("s1", "s2", "t", null, "one", "db", null, null, T0, 2.0, "success"),
                span("s2", "s1", "t", null, "two", "db", null, null, T0 + 500, 1.0, "success"),
                span("s3", "s3", "t", null, "self", "db", null, null, T0 + 700, 1.0, "success")));
        // the self-parented span is an orphan; the two-span cycle, reachable from nowhere, follows in start order
        assertEquals(List.of(Waterfall.ORPHANS_MARKER, "  self", "  one", "    two"), names(r.rowsOf("t")));
    }

    @Test
    void deepNestingDoesNotOverflowAndIndentationIsCapped() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(transaction("n0", null, "deep", "root", "request", T0, 100.0, "success"));
        for (int i = 1; i <= 5000; i++) {
            lines.add(span("n" + i, "n" + (i - 1), "deep", "n0", "s" + i, "custom", null, null, T0 + i, 1.0,
                    "success"));
        }
        Result r = view(file(lines.toArray(new String[0])));
        List<String> names = names(r.rowsOf("deep"));
        assertEquals(5001, names.size());
        assertEquals("  s1", names.get(1));
        assertEquals("                              s5000", names.get(5000));
    }

    // ------------------------------------------------------------------ missing fields and robustness

    @Test
    void missingFieldsPrintAsQuestionMarks() throws IOException {
        Result r = view(file(METADATA,
                "{\"transaction\":{\"id\":\"aaaa\",\"trace_id\":\"t\",\"timestamp\":" + T0 + "}}",
                "{\"span\":{\"id\":\"s1\",\"parent_id\":\"aaaa\",\"trace_id\":\"t\"}}",
                "{\"error\":{\"id\":\"e1\",\"parent_id\":\"s1\",\"trace_id\":\"t\"}}"), "--ascii");
        assertEquals(0, r.code);
        List<String> rows = r.rowsOf("t");
        assertEquals(List.of("?", "  ?", "    ! error ?"), names(rows));
        assertRow(rows.get(0), "?", "?", "?", "?", "|#                                       |");
        // no timestamp: no position on the timeline
        assertRow(rows.get(1), "  ?", "?", "?", "?", "|                                        |");
        // a transaction without name or duration: counted under "?", no percentiles
        assertTrue(r.out.contains(row("  ?", "1", "?", "?", "0") + "\n"), r.out);
        assertTrue(r.out.contains(row("  ?", "1", "0.000") + "\n"), r.out);
    }

    @Test
    void eventsWithoutTraceIdFormATraceOfTheirOwn() throws IOException {
        Result r = view(file(METADATA, "{\"error\":{\"id\":\"e1\",\"timestamp\":" + T0 + ",\"log\":"
                + "{\"message\":\"logged\"},\"culprit\":\"x\"}}"));
        assertTrue(r.out.contains("trace ? (events without a trace_id)  0 transactions, 0 spans, 1 error\n"), r.out);
        assertEquals(List.of("! error logged"), names(r.rowsOf("?")));
        assertTrue(r.rowsOf("?").get(0).endsWith(Bar.empty(Bar.WIDTH)), r.out);
        assertTrue(r.out.contains("1 error without a transaction in this file"), r.out);
    }

    @Test
    void malformedLinesAreCountedOnceBlankLinesAndUnknownTypesIgnored() throws IOException {
        Result r = view(file(METADATA,
                "",
                "this is not json",
                "   ",
                transaction("aaaa", null, "t", "tx", "request", T0, 10.0, "success"),
                "{\"span\": 5}",
                "[1, 2]",
                "{\"log\":{\"message\":\"hello\"}}",
                "{\"span\":{\"id\":\"s1\",\"parent_id\":\"aaaa\",\"trace_id\":\"t\",\"name\":\"ok\",\"type\":\"db\","
                        + "\"timestamp\":" + (T0 + 1000) + ",\"duration\":1.5}}\r",
                "\t"));
        assertEquals(0, r.code);
        assertEquals(List.of("tx", "  ok"), names(r.rowsOf("t")));
        assertTrue(r.out.contains("\n3 malformed lines skipped (first at line 3: "), r.out);
        assertTrue(r.out.contains("1 event of unknown type ignored (log: 1)"), r.out);
        assertEquals(1, count(r.out, "malformed"), r.out);
        assertTrue(r.out.contains("10 lines: 1 metadata line, 1 transaction, 1 span, 0 errors, 0 metricsets"), r.out);
    }

    @Test
    void aCleanFileReportsNoMalformedLines() throws IOException {
        Result r = view(file(METADATA, transaction("aaaa", null, "t", "tx", "request", T0, 10.0, "success")));
        assertFalse(r.out.contains("malformed"), r.out);
        assertFalse(r.out.contains("unknown type"), r.out);
    }

    @Test
    void singleMalformedLineAndTrailingGarbage() throws IOException {
        Result r = view(file(METADATA, transaction("aaaa", null, "t", "tx", "request", T0, 10.0, "success") + " x"));
        assertTrue(r.out.contains("1 malformed line skipped (first at line 2: text after the JSON object)"), r.out);
    }

    @Test
    void severalRunsAppendedToOneFile() throws IOException {
        String otherRun = "{\"metadata\":{\"service\":{\"name\":\"billing\",\"agent\":{\"name\":\"apm-agent\","
                + "\"version\":\"0.2.0\"}}}}";
        Result r = view(file(METADATA, transaction("a", null, "t1", "tx", "request", T0, 1.0, "success"),
                otherRun, transaction("b", null, "t2", "tx", "request", T0 + 10, 1.0, "success")));
        assertTrue(r.out.contains("2 metadata lines, 2 transactions"), r.out);
        assertTrue(r.out.contains("services: shop (apm-agent 0.1.0), billing (apm-agent 0.2.0)"), r.out);
    }

    @Test
    void compressedFilesAreInflated() throws IOException {
        String[] lines = {METADATA, transaction("aaaa", null, "t", "tx", "request", T0, 10.0, "success"),
                span("s1", "aaaa", "t", "aaaa", "child", "db", null, null, T0 + 1_000, 1.0, "success")};
        String plain = view(file(lines)).out;
        byte[] bytes = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
        Path gzip = dir.resolve("events.ndjson.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzip))) {
            out.write(bytes);
        }
        Path zlib = dir.resolve("events.ndjson.deflate");
        try (OutputStream out = new DeflaterOutputStream(Files.newOutputStream(zlib))) {
            out.write(bytes);
        }
        String expected = withoutFirstLine(plain);
        assertEquals(expected, withoutFirstLine(view(gzip).out));
        assertEquals(expected, withoutFirstLine(view(zlib).out));
    }

    @Test
    void dashReadsStandardInput() {
        String input = METADATA + "\n" + transaction("aaaa", null, "t", "from stdin", "request", T0, 1.0, "success");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = TraceViewer.run(new String[]{"-"}, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()), true);
        assertEquals(0, code);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("from stdin"));
    }

    @Test
    void emptyFileIsNotAnError() throws IOException {
        Result r = view(file());
        assertEquals(0, r.code);
        assertTrue(r.out.contains(": 0 traces, showing 0"), r.out);
        assertTrue(r.out.contains("0 lines: 0 metadata lines"), r.out);
    }

    // ------------------------------------------------------------------ summary

    @Test
    void summaryHasExactPercentilesPerTransactionNameAndTimePerSpanType() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(METADATA);
        double[] checkout = {12.0, 3.0, 7.0, 100.0, 5.0};  // sorted 3 5 7 12 100: p50 = 7, p99 = 100
        for (int i = 0; i < checkout.length; i++) {
            lines.add(transaction("c" + i, null, "tc" + i, "POST /checkout", "request", T0 + i * 1000L, checkout[i],
                    "success"));
        }
        lines.add(transaction("h0", null, "th", "GET /health", "request", T0, 0.25, "success"));
        lines.add(span("q1", "c0", "tc0", "c0", "SELECT", "db", "mysql", "query", T0 + 1, 2.5, "success"));
        lines.add(span("q2", "c1", "tc1", "c1", "SELECT", "db", "mysql", "query", T0 + 1001, 1.25, "success"));
        lines.add(span("q3", "c1", "tc1", "c1", "INSERT", "db", "mysql", "exec", T0 + 1002, 0.5, "success"));
        lines.add(span("h1", "c2", "tc2", "c2", "GET", "external", "http", null, T0 + 2001, 4.0, "success"));
        lines.add(span("x1", "c2", "tc2", "c2", "work", "app", null, null, T0 + 2002, 1.0, "success"));
        lines.add(error("e1", "c3", "tc3", "c3", "E", "one", T0 + 3001));
        lines.add(error("e2", "q2", "tc1", "c1", "E", "two", T0 + 1002));
        Result r = view(file(lines.toArray(new String[0])), "--limit", "0");

        assertTrue(r.out.contains("6 transactions, 5 spans, 2 errors"), r.out);
        assertEquals(row("  POST /checkout", "5", "7.000", "100.000", "2"), line(r.out, "  POST /checkout"));
        assertEquals(row("  GET /health", "1", "0.250", "0.250", "0"), line(r.out, "  GET /health"));
        assertEquals(row("  db/mysql", "3", "4.250"), line(r.out, "  db/mysql"));
        assertEquals(row("  external/http", "1", "4.000"), line(r.out, "  external/http"));
        assertEquals(row("  app", "1", "1.000"), line(r.out, "  app"));
        // transactions by count, spans by total time
        assertTrue(r.out.indexOf("POST /checkout") < r.out.indexOf("GET /health"), r.out);
        assertTrue(r.out.indexOf("  db/mysql") < r.out.indexOf("  external/http")
                && r.out.indexOf("  external/http") < r.out.indexOf("  app "), r.out);
    }

    @Test
    void agentHealthSamplesArePrintedAsReported() throws IOException {
        Result r = view(file(METADATA,
                metricset("\"agent.events.total\":{\"value\":100},\"agent.events.dropped\":{\"value\":3},"
                        + "\"jvm.memory.heap.used\":{\"value\":123456}"),
                metricset("\"agent.events.total\":{\"value\":50},\"agent.events.dropped\":{\"value\":2},"
                        + "\"agent.events.evicted\":{\"value\":7}"),
                metricset("\"system.cpu.total.norm.pct\":{\"value\":0.5}")));

        assertTrue(r.out.contains("3 metricsets"), r.out);
        assertEquals(row("  agent.events.total", "2", "150", "50"), line(r.out, "  agent.events.total"));
        assertEquals(row("  agent.events.dropped", "2", "5", "2"), line(r.out, "  agent.events.dropped"));
        assertEquals(row("  agent.events.evicted", "1", "7", "7"), line(r.out, "  agent.events.evicted"));
        assertFalse(r.out.contains("jvm.memory"), r.out);
        assertFalse(r.out.contains("no agent.events"), r.out);
    }

    @Test
    void noHealthSamplesSaysSoInsteadOfPrintingNumbers() throws IOException {
        Result r = view(file(METADATA, metricset("\"jvm.gc.count\":{\"value\":4}")));
        assertTrue(r.out.contains("agent health: no agent.events.* samples in this file"), r.out);
    }

    // ------------------------------------------------------------------ command line

    @Test
    void helpDocumentsTheOptions() {
        Result r = run(true, "--help");
        assertEquals(0, r.code);
        for (String documented : List.of("usage: java -jar apm-agent.jar view", "--limit N", "--trace ID", "--ascii",
                "agent.events", "malformed", "exit status")) {
            assertTrue(r.out.contains(documented), documented + " in\n" + r.out);
        }
    }

    @Test
    void usageErrorsExitWithTwoAndAMessage() throws IOException {
        Path file = file(METADATA);
        Object[][] cases = {
                {new String[0], "FILE missing"},
                {new String[]{"--bogus", file.toString()}, "unknown option --bogus"},
                {new String[]{file.toString(), file.toString()}, "one FILE expected"},
                {new String[]{"--limit", "ten", file.toString()}, "--limit needs a number >= 0, got 'ten'"},
                {new String[]{"--limit", "-1", file.toString()}, "--limit needs a number >= 0"},
                {new String[]{file.toString(), "--limit"}, "--limit needs a number"},
                {new String[]{file.toString(), "--trace"}, "--trace needs a trace id"},
                {new String[]{dir.resolve("absent.ndjson").toString()}, "cannot read " + dir.resolve("absent.ndjson") + ": no such file"},
                {new String[]{dir.toString()}, "cannot read " + dir + ": is a directory"},
                {new String[]{"--trace", "nope", file.toString()}, "no trace nope in " + file},
        };
        for (Object[] c : cases) {
            Result r = run(true, (String[]) c[0]);
            assertEquals(2, r.code, Arrays.toString((String[]) c[0]));
            assertTrue(r.err.startsWith("apm-agent view: " + c[1]), r.err);
            assertEquals("", r.out, Arrays.toString((String[]) c[0]));
        }
    }

    // ------------------------------------------------------------------ helpers

    static String transaction(String id, String parentId, String traceId, String name, String type, long timestamp,
                              double duration, String outcome) {
        return "{\"transaction\":{\"id\":\"" + id + "\"" + field("parent_id", parentId) + field("trace_id", traceId)
                + field("name", name) + field("type", type) + ",\"timestamp\":" + timestamp + ",\"duration\":"
                + duration + field("outcome", outcome) + ",\"span_count\":{\"started\":1,\"dropped\":0},"
                + "\"context\":{\"request\":{\"method\":\"GET\"}},\"sampled\":true}}";
    }

    static String span(String id, String parentId, String traceId, String transactionId, String name, String type,
                       String subtype, String action, long timestamp, double duration, String outcome) {
        return "{\"span\":{\"id\":\"" + id + "\"" + field("parent_id", parentId) + field("trace_id", traceId)
                + field("transaction_id", transactionId) + field("name", name) + field("type", type)
                + field("subtype", subtype) + field("action", action) + ",\"timestamp\":" + timestamp
                + ",\"duration\":" + duration + field("outcome", outcome)
                + ",\"stacktrace\":[{\"filename\":\"A.java\",\"lineno\":1}],\"context\":{\"db\":{\"statement\":"
                + "\"SELECT 1\"}}}}";
    }

    static String error(String id, String parentId, String traceId, String transactionId, String exceptionType,
                        String message, long timestamp) {
        return "{\"error\":{\"id\":\"" + id + "\"" + field("parent_id", parentId) + field("trace_id", traceId)
                + field("transaction_id", transactionId) + ",\"timestamp\":" + timestamp
                + ",\"exception\":{\"type\":\"" + exceptionType + "\",\"message\":\"" + message + "\"},"
                + "\"culprit\":\"A.b(A.java:1)\"}}";
    }

    static String metricset(String samples) {
        return "{\"metricset\":{\"timestamp\":" + T0 + ",\"samples\":{" + samples + "}}}";
    }

    private static String field(String name, String value) {
        return value == null ? "" : ",\"" + name + "\":\"" + value + "\"";
    }

    private Path file(String... lines) throws IOException {
        Path file = Files.createTempFile(dir, "events", ".ndjson");
        Files.write(file, String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private Result view(Path file, String... options) {
        String[] args = Arrays.copyOf(options, options.length + 1);
        args[options.length] = file.toString();
        return run(true, args);
    }

    static Result run(boolean blockBars, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = TraceViewer.run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                blockBars);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A waterfall row split into its columns must hold these values. */
    private static void assertRow(String row, String name, String type, String duration, String outcome, String bar) {
        assertEquals(Waterfall.row(name, type, duration, outcome, bar), row);
    }

    /** The name column of each row (the orphans marker as is), trailing spaces removed. */
    static List<String> names(List<String> rows) {
        return rows.stream()
                .map(row -> row.startsWith("[") ? row
                        : row.trim().startsWith("! error ") ? row.substring(0, Waterfall.TEXT_WIDTH).stripTrailing()
                        : row.substring(0, Waterfall.NAME_WIDTH).stripTrailing())
                .collect(Collectors.toList());
    }

    private static String row(String key, String... numbers) {
        StringBuilder sb = new StringBuilder(Format.fit(key, Summary.KEY_WIDTH));
        for (String number : numbers) {
            sb.append(Format.padLeft(number, Summary.NUMBER_WIDTH));
        }
        return sb.toString();
    }

    private static String line(String out, String prefix) {
        List<String> matches = out.lines().filter(l -> l.startsWith(prefix + " ")).collect(Collectors.toList());
        assertEquals(1, matches.size(), prefix + " in\n" + out);
        return matches.get(0);
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private static String withoutFirstLine(String s) {
        return s.substring(s.indexOf('\n') + 1);
    }

    static final class Result {
        final int code;
        final String out;
        final String err;

        Result(int code, String out, String err) {
            this.code = code;
            this.out = out;
            this.err = err;
        }

        /** "trace ID" of every trace header, in printed order. */
        List<String> traceHeaders() {
            return out.lines().filter(l -> l.startsWith("trace ")).map(l -> l.split(" {2}")[0])
                    .collect(Collectors.toList());
        }

        /** The rows of one trace: everything after its column header up to the blank line. */
        List<String> rowsOf(String traceId) {
            List<String> lines = out.lines().collect(Collectors.toList());
            int header = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).equals("trace " + traceId) || lines.get(i).startsWith("trace " + traceId + "  ")
                        || lines.get(i).startsWith("trace " + traceId + " (")) {
                    header = i;
                }
            }
            assertTrue(header >= 0, "trace " + traceId + " in\n" + out);
            assertTrue(lines.get(header + 1).startsWith("name "), lines.get(header + 1));
            List<String> rows = new ArrayList<>();
            for (int i = header + 2; i < lines.size() && !lines.get(i).isEmpty(); i++) {
                rows.add(lines.get(i));
            }
            return rows;
        }
    }
}
