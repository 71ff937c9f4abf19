package dev.apmagent.benchmark.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders a real (trimmed) JMH JSON file of the pool benchmark and checks the table and the PNG charts. */
class ResultsRendererTest {

    @TempDir
    Path dir;

    private Path sampleResults() throws IOException {
        Path in = Files.createDirectories(dir.resolve("results"));
        try (InputStream json = getClass().getResourceAsStream("/render/pool-sample.json")) {
            Files.copy(json, in.resolve("pool-t2.json"));
        }
        Files.write(in.resolve("interrupted.json"), new byte[0]); // a run that wrote nothing is skipped
        return in;
    }

    @Test
    void readsGroupResultsWithTheirMethodsCountersAndAllocation() throws IOException {
        List<JmhResult> results = ResultsRenderer.readAll(sampleResults());
        assertEquals(4, results.size());
        JmhResult thrpt = results.get(0);
        assertEquals("PoolHandoffBenchmark", thrpt.benchmarkClass());
        assertEquals("handoff", thrpt.benchmark());
        assertEquals("thrpt", thrpt.mode());
        assertEquals("2+1", thrpt.threads());
        assertEquals("thread_local", thrpt.params().get("strategy"));
        assertEquals(List.of("handoff", "acquire", "release"), thrpt.metrics().stream().map(JmhResult.Metric::name).toList());
        assertTrue(thrpt.allocatedBytesPerOp() != null);
        assertTrue(thrpt.counters().containsKey("handedOff"), thrpt.counters().toString());
        JmhResult sample = results.get(2);
        assertEquals("sample", sample.mode());
        assertTrue(sample.metrics().get(1).percentiles().containsKey("99.9"), "acquire percentiles");
        assertTrue(thrpt.metrics().get(0).percentiles().isEmpty(), "no percentiles for throughput");
    }

    @Test
    void writesAMarkdownTableAndOnePngChartPerMethodAndMode() throws IOException {
        Path out = dir.resolve("out");
        List<Path> written = new ResultsRenderer("smoke check, not results").render(ResultsRenderer.readAll(sampleResults()), out);

        String md = new String(Files.readAllBytes(out.resolve("results.md")), StandardCharsets.UTF_8);
        assertTrue(md.contains("**smoke check, not results**"), md);
        assertTrue(md.contains("## PoolHandoffBenchmark (sample)"), md);
        assertTrue(md.contains("| handoff | acquire | 65536 | thread_local | 2+1 |"), md);
        assertTrue(md.contains("| p50 | p90 | p99 | p99.9 | p99.99 | max |"), md);
        assertTrue(md.contains("![PoolHandoffBenchmark.acquire (p99.9)"), md);

        // 3 measured methods (group, acquire, release) x 2 modes, plus results.md
        assertEquals(7, written.size(), written.toString());
        Path chart = out.resolve("PoolHandoffBenchmark-acquire-sample.png");
        BufferedImage image = ImageIO.read(chart.toFile());
        assertEquals(BarChart.WIDTH, image.getWidth());
        assertEquals(BarChart.HEIGHT, image.getHeight());
        int firstSeries = 0;
        int secondSeries = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                firstSeries += rgb == 0x1f77b4 ? 1 : 0;
                secondSeries += rgb == 0xff7f0e ? 1 : 0;
            }
        }
        assertTrue(firstSeries > 100 && secondSeries > 100,
                "bars of both strategies drawn: " + firstSeries + ", " + secondSeries);
    }

    @Test
    void runsAtSeveralThreadCountsBecomeCategoriesInProducerOrder() throws IOException {
        Path in = sampleResults();
        String json = new String(Files.readAllBytes(in.resolve("pool-t2.json")), StandardCharsets.UTF_8);
        // the same results as if run with -tg 8,1 and -tg 16,1, in files that sort before the 2-producer one
        Files.write(in.resolve("pool-t16.json"),
                json.replace("\"threads\": 3", "\"threads\": 17").getBytes(StandardCharsets.UTF_8));
        Files.write(in.resolve("pool-t08.json"),
                json.replace("\"threads\": 3", "\"threads\": 9").getBytes(StandardCharsets.UTF_8));
        List<JmhResult> results = ResultsRenderer.readAll(in);
        assertEquals(12, results.size());

        List<ResultsRenderer.Chart> charts = new ResultsRenderer("").charts(results.stream()
                .filter(r -> r.mode().equals("thrpt")).toList());
        assertEquals(3, charts.size(), "group, acquire, release");
        ResultsRenderer.Chart acquire = charts.get(1);
        assertEquals("PoolHandoffBenchmark-acquire-thrpt.png", acquire.fileName());
        assertEquals(List.of("2+1 threads", "8+1 threads", "16+1 threads"), acquire.categories());
        assertEquals(List.of("thread_local", "queue"), acquire.series());
        for (double[] row : acquire.values()) {
            for (double v : row) {
                assertTrue(v > 0, "every strategy has a bar at every thread count");
            }
        }
    }

    @Test
    void barChartScaleStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(1, BarChart.niceStep(0.7), 1e-12);
        assertEquals(2, BarChart.niceStep(1.3), 1e-12);
        assertEquals(50, BarChart.niceStep(31), 1e-12);
        assertEquals(0.01, BarChart.niceStep(0.0093), 1e-12);
        assertEquals(1, BarChart.niceStep(0), 1e-12);
    }

    @Test
    void axisTicksShowTheDecimalsTheStepNeeds() {
        assertEquals("4", BarChart.tick(4, 1));
        assertEquals("0.25", BarChart.tick(0.25, 0.05));
        assertEquals("1.5", BarChart.tick(1.5, 0.5));
        assertEquals("12,000", BarChart.tick(12000, 2000));
    }

    @Test
    void numbersAreShortAndLocaleIndependent() {
        assertEquals("12,346", ResultsRenderer.number(12345.6));
        assertEquals("42.0", ResultsRenderer.number(42));
        assertEquals("0.058", ResultsRenderer.number(0.0581));
        assertEquals("0", ResultsRenderer.number(0));
        assertEquals("", ResultsRenderer.number(Double.NaN));
    }
}
