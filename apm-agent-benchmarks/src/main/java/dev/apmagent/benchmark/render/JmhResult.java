package dev.apmagent.benchmark.render;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One row of a JMH JSON result file, flattened to what the renderer needs: which benchmark, mode, threads and
 * parameters, and for the primary metric and each per-method secondary metric (the methods of a {@code @Group} and
 * {@code OPERATIONS} counters, which share the primary metric's unit) the score, its error and percentiles; plus the
 * allocation per operation ({@code -prof gc}) and the {@code EVENTS} counters (unit {@code #}).
 */
record JmhResult(String benchmarkClass, String benchmark, String mode, String threads, Map<String, String> params,
                 List<Metric> metrics, Double allocatedBytesPerOp, Map<String, Double> counters) {

    /** Methods of the @Group benchmarks that run on exactly one thread (the releaser, the poller). */
    static final String[] ONE_CONSUMER_METHODS = {"release", "poll"};

    private static final Pattern PERCENTILE_ENTRY = Pattern.compile("(.*:)?p[01]\\.\\d+");

    /** Percentiles shown in tables, as JMH names them. */
    static final String[] PERCENTILES = {"50.0", "90.0", "99.0", "99.9", "99.99", "100.0"};
    static final String[] PERCENTILE_LABELS = {"p50", "p90", "p99", "p99.9", "p99.99", "max"};

    /** A measured value: the primary metric (named after the benchmark method or group) or a group method's. */
    record Metric(String name, double score, double error, String unit, Map<String, Double> percentiles) {

        boolean hasPercentiles() {
            return !percentiles.isEmpty();
        }
    }

    static JmhResult parse(JsonNode node) {
        String full = node.path("benchmark").asText();
        int lastDot = full.lastIndexOf('.');
        String method = full.substring(lastDot + 1);
        String owner = full.substring(0, lastDot);
        String benchmarkClass = owner.substring(owner.lastIndexOf('.') + 1);
        String mode = node.path("mode").asText();

        // JMH's JSON has no thread-group layout: a @Group benchmark with a releasing/polling method is read as N producers
        // plus the one consumer thread that run.sh gives it (-tg N,1)
        int total = node.path("threads").asInt();
        boolean oneConsumerGroup = false;
        for (String consumer : ONE_CONSUMER_METHODS) {
            oneConsumerGroup |= node.path("secondaryMetrics").has(consumer);
        }
        String threads = oneConsumerGroup ? (total - 1) + "+1" : String.valueOf(total);

        Map<String, String> params = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> p = node.path("params").fields();
        while (p.hasNext()) {
            Map.Entry<String, JsonNode> e = p.next();
            params.put(e.getKey(), e.getValue().asText());
        }

        JsonNode primary = node.path("primaryMetric");
        String unit = primary.path("scoreUnit").asText();
        List<Metric> metrics = new ArrayList<>();
        metrics.add(metric(method, primary, mode));
        Double alloc = null;
        Map<String, Double> counters = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> s = node.path("secondaryMetrics").fields();
        while (s.hasNext()) {
            Map.Entry<String, JsonNode> e = s.next();
            String name = e.getKey().startsWith("\u00b7") ? e.getKey().substring(1) : e.getKey();
            JsonNode m = e.getValue();
            String secondaryUnit = m.path("scoreUnit").asText();
            if (name.equals("gc.alloc.rate.norm")) {
                alloc = m.path("score").asDouble();
            } else if (PERCENTILE_ENTRY.matcher(name).matches()) {
                continue; // SampleTime's "p0.99" / "acquire:p0.99" duplicates of scorePercentiles
            } else if (secondaryUnit.equals(unit)) {
                metrics.add(metric(name, m, mode));
            } else if (secondaryUnit.equals("#")) {
                counters.put(name, m.path("score").asDouble());
            }
        }
        return new JmhResult(benchmarkClass, method, mode, threads, params, metrics, alloc, counters);
    }

    private static Metric metric(String name, JsonNode m, String mode) {
        Map<String, Double> percentiles = new LinkedHashMap<>();
        JsonNode pct = m.path("scorePercentiles");
        // in other modes scorePercentiles are over iteration scores, not over operations
        if (mode.equals("sample")) {
            for (String key : PERCENTILES) {
                if (pct.has(key)) {
                    percentiles.put(key, pct.get(key).asDouble());
                }
            }
        }
        double error = m.path("scoreError").isNumber() ? m.path("scoreError").asDouble() : Double.NaN;
        return new Metric(name, m.path("score").asDouble(), error, m.path("scoreUnit").asText(), percentiles);
    }

    /** Producer threads first, for sorting "8+1" after "2+1". */
    int threadsSortKey() {
        int plus = threads.indexOf('+');
        return Integer.parseInt(plus < 0 ? threads : threads.substring(0, plus));
    }
}
