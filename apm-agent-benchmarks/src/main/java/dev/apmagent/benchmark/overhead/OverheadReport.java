package dev.apmagent.benchmark.overhead;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Renders the results of a run as Markdown: per endpoint, the median over rounds of every figure for each
 * configuration with its ratio to "no agent"; then what the sink received per configuration (so a reader sees that
 * each agent reported every transaction and span); then every round's raw figures. The header (machine, versions,
 * flags, command) is given by the caller.
 */
public final class OverheadReport {

    private OverheadReport() {
    }

    /** One endpoint's section. {@code results} in run order; the first configuration seen is the baseline. */
    public static String renderEndpoint(String endpoint, List<RunResult> results) {
        Map<String, List<RunResult>> byConfig = new LinkedHashMap<>();
        for (RunResult r : results) {
            byConfig.computeIfAbsent(r.setup().key(), k -> new ArrayList<>()).add(r);
        }
        List<RunResult> baseline = byConfig.getOrDefault("none", results.isEmpty() ? List.of()
                : byConfig.values().iterator().next());
        StringBuilder md = new StringBuilder();
        md.append("### `").append(endpoint).append("`\n\n");
        md.append("Median of ").append(rounds(results)).append(" round(s); in parentheses the ratio to no agent"
                + " (for req/s higher is better, for everything else lower is better).\n\n");
        md.append("| configuration | req/s | p50 | p99 | p99.9 | CPU per request | RSS | heap after GC | start-up |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (List<RunResult> runs : byConfig.values()) {
            md.append("| ").append(runs.get(0).setup().label())
                    .append(" | ").append(cell(runs, baseline, RunResult::requestsPerSecond, "%.0f", 1))
                    .append(" | ").append(cell(runs, baseline, RunResult::p50Micros, "%.2f ms", 1e-3))
                    .append(" | ").append(cell(runs, baseline, RunResult::p99Micros, "%.2f ms", 1e-3))
                    .append(" | ").append(cell(runs, baseline, RunResult::p999Micros, "%.2f ms", 1e-3))
                    .append(" | ").append(cell(runs, baseline, RunResult::cpuMicrosPerRequest, "%.1f µs", 1))
                    .append(" | ").append(cell(runs, baseline, r -> r.rssKib(), "%.0f MiB", 1 / 1024.0))
                    .append(" | ").append(cell(runs, baseline, r -> r.heapAfterGcBytes(), "%.1f MiB",
                            1 / (1024.0 * 1024.0)))
                    .append(" | ").append(cell(runs, baseline, r -> r.startupMillis(), "%.2f s", 1e-3))
                    .append(" |\n");
        }
        md.append("\nWhat the sink received from each JVM over its whole life (start-up probe, warm-up, measured window"
                + " and heap probe), summed over rounds. `per request` is intake transactions per request served, or"
                + " for OTLP spans per request served (server and client spans alike: one request to `/db` makes"
                + " two). Less than that means the agent dropped; `drop log lines` counts the lines of its output"
                + " that mention dropping (the logs are in the harness's work directory).\n\n");
        md.append("| configuration | requests served | intake transactions | intake spans | intake errors"
                + " | intake metricsets | OTLP spans | per request | drop log lines | sink requests | unreadable |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (List<RunResult> runs : byConfig.values()) {
            long served = sum(runs, r -> r.requestsServed());
            long tx = sum(runs, r -> r.telemetry("intake_transaction"));
            long otlp = sum(runs, r -> r.telemetry(TelemetrySink.OTLP_SPANS));
            long primary = tx > 0 ? tx : otlp;
            md.append("| ").append(runs.get(0).setup().label())
                    .append(" | ").append(served)
                    .append(" | ").append(tx)
                    .append(" | ").append(sum(runs, r -> r.telemetry("intake_span")))
                    .append(" | ").append(sum(runs, r -> r.telemetry("intake_error")))
                    .append(" | ").append(sum(runs, r -> r.telemetry("intake_metricset")))
                    .append(" | ").append(otlp)
                    .append(" | ").append(served > 0 && primary > 0 ? format("%.3f", (double) primary / served) : "-")
                    .append(" | ").append(sum(runs, r -> r.dropLogLines()))
                    .append(" | ").append(sum(runs, r -> r.telemetry(TelemetrySink.REQUESTS)))
                    .append(" | ").append(sum(runs, r -> r.telemetry(TelemetrySink.UNREADABLE)))
                    .append(" |\n");
        }
        md.append("\nEvery round:\n\n");
        md.append("| round | configuration | start-up | warm-up | settled | window | responses | errors | req/s | p50"
                + " | p99 | p99.9 | CPU/request | RSS | heap after GC |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (RunResult r : results) {
            md.append("| ").append(r.round())
                    .append(" | ").append(r.setup().key())
                    .append(" | ").append(format("%.2f s", r.startupMillis() / 1e3))
                    .append(" | ").append(format("%.0f s", r.warmupSeconds()))
                    .append(" | ").append(r.settled() ? "yes" : "**no**")
                    .append(" | ").append(format("%.1f s", r.seconds()))
                    .append(" | ").append(r.responses())
                    .append(" | ").append(r.errors())
                    .append(" | ").append(format("%.0f", r.requestsPerSecond()))
                    .append(" | ").append(format("%.2f ms", r.p50Micros() / 1e3))
                    .append(" | ").append(format("%.2f ms", r.p99Micros() / 1e3))
                    .append(" | ").append(format("%.2f ms", r.p999Micros() / 1e3))
                    .append(" | ").append(format("%.1f µs", r.cpuMicrosPerRequest()))
                    .append(" | ").append(format("%.0f MiB", r.rssKib() / 1024.0))
                    .append(" | ").append(format("%.1f MiB", r.heapAfterGcBytes() / (1024.0 * 1024.0)))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static int rounds(List<RunResult> results) {
        int max = 0;
        for (RunResult r : results) {
            max = Math.max(max, r.round());
        }
        return max;
    }

    private static String cell(List<RunResult> runs, List<RunResult> baseline, ToDoubleFunction<RunResult> figure,
                               String pattern, double scale) {
        double value = median(runs, figure);
        double base = median(baseline, figure);
        String ratio = base > 0 ? format(" (%.2f)", value / base) : "";
        return format(pattern, value * scale) + ratio;
    }

    static double median(List<RunResult> runs, ToDoubleFunction<RunResult> figure) {
        if (runs.isEmpty()) {
            return 0;
        }
        double[] values = new double[runs.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = figure.applyAsDouble(runs.get(i));
        }
        Arrays.sort(values);
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }

    private static long sum(List<RunResult> runs, ToDoubleFunction<RunResult> figure) {
        long total = 0;
        for (RunResult r : runs) {
            total += (long) figure.applyAsDouble(r);
        }
        return total;
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
