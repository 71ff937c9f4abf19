package dev.apmagent.metrics;

/**
 * Receives metricsets from a {@link MetricSource}: {@code startSet}, any number of {@code sample}s, {@code endSet}.
 * A set without samples is discarded. Implemented by the reporter, which serializes each set as one intake
 * {@code metricset} event.
 */
public interface MetricSink {

    /** Starts a metricset; {@code tagName}/{@code tagValue} may be null for a set without tags. */
    void startSet(long epochMicros, String tagName, CharSequence tagValue);

    /** Adds a sample; non-finite values (NaN, infinities, which JSON cannot carry) are skipped. */
    void sample(MetricName name, double value);

    void endSet();
}
