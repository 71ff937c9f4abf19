package dev.apmagent.metrics;

/** Something that reports metricsets every metrics_interval. Runs on the reporter thread, never on application threads. */
public interface MetricSource {

    void collect(long epochMicros, MetricSink sink);
}
