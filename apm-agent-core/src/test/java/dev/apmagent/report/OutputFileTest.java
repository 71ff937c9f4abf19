package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** output_file: the same NDJSON as a request body, metadata first, flushed periodically and on shutdown. */
class OutputFileTest {

    @TempDir
    Path dir;

    private ApmReporter reporter(Path file, long metricsMillis) {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.SERVICE_NAME.key(), "file-demo");
        options.put(ReporterOptions.OUTPUT_FILE.key(), file.toString());
        options.put(ReporterOptions.METRICS_INTERVAL.key(), metricsMillis);
        PipelineSettings settings = PipelineSettings.from(Config.ofParsed(options));
        settings.fileFlushIntervalMillis = 20;
        settings.maxIdleParkMillis = 20;
        return new ApmReporter(Config.ofParsed(options), settings);
    }

    @Test
    void writesMetadataThenEventsAndFlushesOnClose() throws Exception {
        Path file = dir.resolve("sub/events.ndjson");
        Files.createDirectories(file.getParent());
        Files.write(file, "stale content from a previous run\n".getBytes(StandardCharsets.UTF_8));
        ApmReporter reporter = reporter(file, 0);
        reporter.start();
        reporter.report(TestEvents.transaction("GET /a"));
        reporter.report(TestEvents.span("SELECT 1"));
        reporter.report(TestEvents.error("oops"));
        reporter.close(5000);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("{\"metadata\""), "metadata first, the file truncated at start");
        IntakeSchemaValidator.fromSharedDir().assertValidNdjson(String.join("\n", lines) + "\n");
        ReporterStats s = reporter.stats();
        assertEquals(3, s.delivered());
        assertEquals(s.produced(), s.delivered() + s.dropped() + s.evicted() + s.buffered());
    }

    @Test
    void isFlushedPeriodicallyWhileRunning() throws Exception {
        Path file = dir.resolve("live.ndjson");
        ApmReporter reporter = reporter(file, 30);
        reporter.start();
        try {
            reporter.report(TestEvents.transaction("GET /live"));
            long deadline = System.nanoTime() + 20_000_000_000L;
            String content = "";
            while (System.nanoTime() < deadline) {
                content = Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
                if (content.contains("GET /live") && content.contains("\"metricset\"")) {
                    break;
                }
                Thread.sleep(10);
            }
            assertTrue(content.contains("GET /live") && content.contains("\"metricset\""), "flushed without a close: " + content);
        } finally {
            reporter.close(2000);
        }
    }
}
