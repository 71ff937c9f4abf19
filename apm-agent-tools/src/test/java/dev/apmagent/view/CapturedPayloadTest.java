package dev.apmagent.view;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The viewer over real payloads from the shared spec directory (system property apm.shared.dir): a capture of the
 * Elastic Java agent 1.52.0 and the APM Server's own intake-v2 test files.
 */
class CapturedPayloadTest {

    private static Path intake;

    /** Per test rather than per class, so that a skip shows in the report as skipped tests with this message. */
    @BeforeEach
    void sharedDirectory() {
        String shared = System.getProperty("apm.shared.dir");
        Path dir = shared == null ? null : Paths.get(shared, "spec", "intake-v2");
        if (dir == null || !Files.isDirectory(dir)) {
            String message = "shared spec directory not found (system property apm.shared.dir = " + shared
                    + "): skipping the captured-payload tests";
            if ("true".equals(System.getenv("CI"))) {
                fail(message);
            }
            abort(message);
        }
        intake = dir;
    }

    @Test
    void elasticAgentCaptureShowsItsFiveTransactionsAndSixteenSpans() {
        Path file = intake.resolve("samples-captured/elastic-java-agent-1.52.0.ndjson");
        TraceViewerTest.Result r = TraceViewerTest.run(true, "--ascii", file.toString());

        assertEquals(0, r.code, r.err);
        assertEquals("", r.err);
        assertTrue(r.out.contains("36 lines: 1 metadata line, 5 transactions, 16 spans, 1 error, 13 metricsets"), r.out);
        assertTrue(r.out.contains("services: capture-test (java 1.52.0)"), r.out);
        assertFalse(r.out.contains("malformed"), r.out);
        assertFalse(r.out.contains(Waterfall.ORPHANS_MARKER), r.out);
        assertEquals(5, r.traceHeaders().size(), r.out);

        // every span is printed in a waterfall, nested under the transaction
        int transactions = 0;
        int spans = 0;
        for (String header : r.traceHeaders()) {
            for (String name : TraceViewerTest.names(r.rowsOf(header.substring("trace ".length())))) {
                if (name.equals("Main#work")) {
                    transactions++;
                } else if (name.startsWith("  ") && name.trim().startsWith("Main#")) {
                    spans++;
                }
            }
        }
        assertEquals(5, transactions);
        assertEquals(16, spans);

        // the first trace: workNested under workStepB, the error under the failing span
        assertEquals(List.of("Main#work", "  Main#workStepA", "  Main#workStepB", "    Main#workNested",
                        "  Main#workFailing", "    ! error java.lang.IllegalStateException: deliberate failure #5"),
                TraceViewerTest.names(r.rowsOf("3a85f15969a0cc8b7aa9774f31b267ec")));
        // p50 and p99 of 9.874 9.644 9.611 9.593 9.860
        assertTrue(r.out.contains("  Main#work                                          5     9.644     9.874         1"),
                r.out);
        assertTrue(r.out.contains("  custom                                            16    52.812"), r.out);
    }

    @Test
    void compressedCaptureReadsLikeThePlainOne() {
        Path file = intake.resolve("samples-captured/elastic-java-agent-1.52.0-compressed.ndjson.deflate");
        TraceViewerTest.Result r = TraceViewerTest.run(true, file.toString());
        assertEquals(0, r.code, r.err);
        assertTrue(r.out.contains("36 lines: 1 metadata line, 5 transactions, 16 spans, 1 error, 13 metricsets"), r.out);
        assertFalse(r.out.contains("malformed"), r.out);
    }

    /** Every APM Server test payload, including its deliberately invalid ones, is viewed without failing. */
    @Test
    void everyServerSampleIsViewed() throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(intake.resolve("samples"), "*.ndjson")) {
            stream.forEach(files::add);
        }
        assertTrue(files.size() >= 20, files.toString());
        for (Path file : files) {
            TraceViewerTest.Result r = TraceViewerTest.run(true, "--limit", "1000", file.toString());
            assertEquals(0, r.code, file + ": " + r.err);
            assertTrue(r.out.contains("\nsummary\n"), file + ":\n" + r.out);
        }
        // spot checks on the invalid ones
        assertTrue(view("invalid-json-event.ndjson").contains("1 malformed line skipped (first at line 2: "));
        assertTrue(view("invalid-event-type.ndjson").contains("1 event of unknown type ignored (tennis-court: 1)"));
        assertTrue(view("logs.ndjson").contains("7 events of unknown type ignored (log: 7)"));
        String heavy = view("heavy.ndjson");
        assertTrue(heavy.contains("480 transactions, 480 spans, 480 errors, 480 metricsets"), heavy);
        assertFalse(heavy.contains("malformed"), heavy);
    }

    private static String view(String sample) {
        TraceViewerTest.Result r = TraceViewerTest.run(false, intake.resolve("samples").resolve(sample).toString());
        assertEquals(0, r.code, r.err);
        return r.out;
    }
}
