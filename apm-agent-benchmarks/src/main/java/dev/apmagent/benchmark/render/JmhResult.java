package dev.apmagent.benchmark.render;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One row of a JMH JSON result file, flattened to what the renderer needs: which benchmark, mode, threads and
 * parameters, and for the primary metric and each per-method secondary metric (the methods of a {@code @Group} and
 * {@code OPERATIONS} counters, which share the primary metric's unit) the score, its error and percentiles; plus the
 * allocation per operation ({@code -prof gc}) and the {@code EVENTS} counters (unit {@code #}).
 */
record JmhResult(String benchmarkClass, String benchmark, String mode, String threads, Map<String, String> params,
                 List<Metric> metrics, Double allocatedBytesPerOp, Map<String, Double> counters) {

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

        String threads = String.valueOf(node.path("threads").asInt());
        JsonNode groups = node.path("threadGroups");
        if (groups.isArray() && groups.size() > 1) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < groups.size(); i++) {
                sb.append(i == 0 ? "" : "+").append(groups.get(i).asInt());
            }
            threads = sb.toString();
        }

        Map<String, String> params = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> p = node.path("params").fields();
        while (p.hasNext()) {
            Map.Entry<String, JsonNode> e = p.next();
            params.put(e.getKey(), e.getValue().asText());
        }

        JsonNode primary = node.path("primaryMetric");
        String unit = primary.path("scoreUnit").asText();
        List<Metric> metrics = new ArrayList<>();
        metrics.add(metric(method, primary));
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
            } else if (secondaryUnit.equals(unit)) {
                metrics.add(metric(name, m));
            } else if (secondaryUnit.equals("#")) {
                counters.put(name, m.path("score").asDouble());
            }
        }
        return new JmhResult(benchmarkClass, method, mode, threads, params, metrics, alloc, counters);
    }

    private static Metric metric(String name, JsonNode m) {
        Map<String, Double> percentiles = new LinkedHashMap<>();
        JsonNode pct = m.path("scorePercentiles");
        if (m.has("rawDataHistogram")) {
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
