/**
 * Periodic metrics: the JVM and system metricsets the Elastic APM UI charts (names as the Elastic Java agent sends
 * them) and the contract ({@link dev.apmagent.metrics.MetricSource}, {@link dev.apmagent.metrics.MetricSink}) through
 * which the reporter collects them every metrics_interval on its own thread. Nothing here runs on application threads.
 */
package dev.apmagent.metrics;
