package dev.apmagent.report;

import dev.apmagent.metrics.MetricName;
import dev.apmagent.metrics.MetricSink;
import dev.apmagent.metrics.MetricSource;

/**
 * The agent's own health metricset, with the names the Elastic agent uses where it has them. Counters are deltas
 * since the previous collection:
 * <ul>
 * <li>{@code agent.events.total}: events produced (transactions, spans, errors, metricsets);</li>
 * <li>{@code agent.events.dropped}: events dropped for any reason (queue full, too big, rejected, send failed);</li>
 * <li>{@code agent.events.queue.min_size.pct}, {@code agent.events.queue.max_size.pct}: lowest and highest fill of
 * the hand-off ring seen by the reporter thread, in % of its capacity;</li>
 * <li>{@code agent.events.requests.count}, {@code agent.events.requests.bytes}: requests completed and bytes sent;</li>
 * <li>ours: {@code agent.events.evicted} (events evicted from the byte buffer while the server was slow or away),
 * {@code agent.events.buffered} (gauge: events held now) and {@code agent.events.backoff.ms} (gauge: current
 * back-off delay, 0 when the server is healthy).</li>
 * </ul>
 */
final class ReporterHealthMetrics implements MetricSource {

    static final MetricName TOTAL = MetricName.of("agent.events.total");
    static final MetricName DROPPED = MetricName.of("agent.events.dropped");
    static final MetricName QUEUE_MIN = MetricName.of("agent.events.queue.min_size.pct");
    static final MetricName QUEUE_MAX = MetricName.of("agent.events.queue.max_size.pct");
    static final MetricName REQUESTS = MetricName.of("agent.events.requests.count");
    static final MetricName REQUEST_BYTES = MetricName.of("agent.events.requests.bytes");
    static final MetricName EVICTED = MetricName.of("agent.events.evicted");
    static final MetricName BUFFERED = MetricName.of("agent.events.buffered");
    static final MetricName BACKOFF = MetricName.of("agent.events.backoff.ms");

    private final ReportingPipeline pipeline;
    private long lastTotal;
    private long lastDropped;
    private long lastRequests;
    private long lastBytes;
    private long lastEvicted;

    ReporterHealthMetrics(ReportingPipeline pipeline) {
        this.pipeline = pipeline;
    }

    @Override
    public void collect(long epochMicros, MetricSink sink) {
        ReporterStats s = pipeline.stats;
        long total = s.produced();
        long dropped = s.dropped();
        long requests = s.requests();
        long bytes = s.requestBytes();
        long evicted = s.evicted();
        double[] fill = pipeline.takeQueueFillRangePct();
        sink.startSet(epochMicros, null, null);
        sink.sample(TOTAL, total - lastTotal);
        sink.sample(DROPPED, dropped - lastDropped);
        sink.sample(QUEUE_MIN, fill[0]);
        sink.sample(QUEUE_MAX, fill[1]);
        sink.sample(REQUESTS, requests - lastRequests);
        sink.sample(REQUEST_BYTES, bytes - lastBytes);
        sink.sample(EVICTED, evicted - lastEvicted);
        sink.sample(BUFFERED, s.buffered());
        sink.sample(BACKOFF, s.backoffMillis());
        sink.endSet();
        lastTotal = total;
        lastDropped = dropped;
        lastRequests = requests;
        lastBytes = bytes;
        lastEvicted = evicted;
    }
}
