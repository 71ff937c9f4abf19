package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.metrics.JvmMetrics;
import dev.apmagent.metrics.MetricSource;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;

/**
 * The agent's {@link Reporter}: hands finished events to the reporting pipeline ({@link ReportingPipeline}) and owns
 * its two daemon threads, "apm-reporter" and "apm-sender".
 *
 * <p>Life cycle, for the integrator: {@code new ApmReporter(config)} (cheap: allocates the rings, starts nothing),
 * pass it to {@code new Tracer(config, reporter)}, {@link #start()} once the agent is set up, and
 * {@link #close(long)} (or {@link #close()} with flush_timeout) from the shutdown hook. Events reported before
 * {@code start()} wait in the hand-off (up to max_queue_size); after {@code close} they are dropped and counted.
 *
 * <p>{@code report} methods run on application threads: they never block, throw, log or allocate; a full hand-off
 * drops the event, counts it and releases its reference at once.
 */
public final class ApmReporter implements Reporter {

    private final ReportingPipeline pipeline;
    private final String serviceName;
    private final String agentVersion;

    public ApmReporter(Config config) {
        this(config, PipelineSettings.from(config));
    }

    ApmReporter(final Config config, final PipelineSettings settings) {
        this.serviceName = MetadataSerializer.serviceName(config.get(CoreOptions.SERVICE_NAME),
                System.getProperty("sun.java.command"));
        this.agentVersion = MetadataSerializer.agentVersion();
        Sender.MetadataSource metadata = new Sender.MetadataSource() {
            private byte[] line;

            @Override
            public synchronized byte[] metadataLine() {
                if (line == null) {
                    line = MetadataSerializer.serialize(MetadataSerializer.detect(config, settings.includeProcessArgs));
                }
                return line;
            }
        };
        this.pipeline = new ReportingPipeline(settings, new ModelCodec(), metadata, agentVersion, serviceName);
        if (settings.metricsIntervalMillis > 0) {
            pipeline.addMetricSource(new JvmMetrics());
            pipeline.addMetricSource(new ReporterHealthMetrics(pipeline));
        }
    }

    /** Adds a source of metricsets (collected every metrics_interval on the reporter thread); before {@link #start()}. */
    public void addMetricSource(MetricSource source) {
        pipeline.addMetricSource(source);
    }

    /** Starts the reporter and sender threads. Idempotent. */
    public void start() {
        pipeline.start();
    }

    @Override
    public boolean report(Transaction transaction) {
        return pipeline.offer(transaction, EventTypes.TRANSACTION);
    }

    @Override
    public boolean report(Span span) {
        return pipeline.offer(span, EventTypes.SPAN);
    }

    @Override
    public boolean report(ErrorEvent error) {
        return pipeline.offer(error, EventTypes.ERROR);
    }

    /**
     * Waits until everything reported before this call has been delivered or dropped, at most {@code timeoutMillis};
     * false on timeout or while the server is failing (back-off). Not for application threads.
     */
    public boolean flush(long timeoutMillis) {
        return pipeline.flush(timeoutMillis);
    }

    /** Flushes what is held within {@code timeoutMillis}, then stops the threads. Idempotent. */
    public void close(long timeoutMillis) {
        pipeline.close(timeoutMillis);
    }

    /** {@link #close(long)} with the flush_timeout option (default 5 s). */
    public void close() {
        pipeline.close(pipeline.settings.flushTimeoutMillis);
    }

    public ReporterStats stats() {
        return pipeline.stats;
    }

    /** The hand-off capacity (max_queue_size rounded up to a power of two). */
    public int queueCapacity() {
        return pipeline.handoff.capacity();
    }

    String serviceName() {
        return serviceName;
    }

    String agentVersion() {
        return agentVersion;
    }

    ReportingPipeline pipeline() {
        return pipeline;
    }
}
