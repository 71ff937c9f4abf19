package dev.apmagent.report;

import dev.apmagent.metrics.MetricName;
import dev.apmagent.metrics.MetricSink;

/**
 * Writes metricsets, {@code {"metricset":{"timestamp":...,"tags":{"name":"G1 Old Gen"},"samples":{"jvm.gc.count":
 * {"value":4.0}}}}}, one line each, and hands every finished line to a {@link LineConsumer} (the byte ring). A set
 * without samples is discarded. Reporter thread only.
 */
final class MetricSetSerializer implements MetricSink {

    private static final byte[] METRICSET = JsonHelper.name("metricset");
    private static final byte[] TIMESTAMP = JsonHelper.name("timestamp");
    private static final byte[] TAGS = JsonHelper.name("tags");
    private static final byte[] SAMPLES = JsonHelper.name("samples");
    private static final byte[] VALUE = JsonHelper.name("value");

    /** Receives each finished metricset line. */
    interface LineConsumer {
        void metricsetLine(JsonHelper line);
    }

    private final JsonHelper h;
    private final LineConsumer consumer;
    private int samples;
    private boolean open;

    MetricSetSerializer(JsonHelper h, LineConsumer consumer) {
        this.h = h;
        this.consumer = consumer;
    }

    @Override
    public void startSet(long epochMicros, String tagName, CharSequence tagValue) {
        h.reset();
        samples = 0;
        open = true;
        h.startObject();
        h.field(METRICSET);
        h.startObject();
        h.field(TIMESTAMP);
        h.number(epochMicros);
        if (tagName != null && tagValue != null) {
            h.field(TAGS);
            h.startObject();
            h.field(keyBytes(tagName));
            h.string(tagValue);
            h.endObject();
        }
        h.field(SAMPLES);
        h.startObject();
    }

    private static byte[] keyBytes(String tagName) {
        // tag keys are constants of the metric sources ("name"); encoded once per distinct key
        if ("name".equals(tagName)) {
            return NAME_KEY;
        }
        return JsonHelper.name(tagName);
    }

    private static final byte[] NAME_KEY = JsonHelper.name("name");

    @Override
    public void sample(MetricName name, double value) {
        if (!open || Double.isNaN(value) || Double.isInfinite(value)) {
            return;
        }
        h.fieldQuoted(name.utf8());
        h.startObject();
        h.field(VALUE);
        h.number(value);
        h.endObject();
        samples++;
    }

    @Override
    public void endSet() {
        if (!open) {
            return;
        }
        open = false;
        if (samples == 0) {
            h.reset();
            return;
        }
        h.endObject();
        h.endObject();
        h.endObject();
        h.newLine();
        consumer.metricsetLine(h);
        h.reset();
    }
}
