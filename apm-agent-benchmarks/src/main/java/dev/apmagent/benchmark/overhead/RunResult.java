package dev.apmagent.benchmark.overhead;

import java.util.Map;

/**
 * What one application JVM measured in one round.
 *
 * @param setup             the configuration
 * @param round             1-based round number
 * @param startupMillis     process start to the first served {@code GET /hello}
 * @param warmupSeconds     load before the measured window
 * @param settled           whether throughput settled within the warm-up bound
 * @param seconds           length of the measured window
 * @param responses         successful responses in the measured window
 * @param errors            failed requests in the measured window
 * @param p50Micros         latency percentiles of the measured window
 * @param p99Micros         ditto
 * @param p999Micros        ditto
 * @param cpuMicrosPerRequest application process CPU time (user + system) in the window, per response
 * @param rssKib            VmRSS at the end of the window
 * @param heapAfterGcBytes  heap in use after a full GC, at the end of the window
 * @param requestsServed    every request the JVM served in its life (start-up probe, warm-up, window, heap probe)
 * @param telemetry         what the sink received from this JVM (counter deltas, see {@link TelemetrySink})
 * @param dropLogLines      lines of the JVM's output that mention dropping (e.g. OpenTelemetry's "BatchSpanProcessor
 *                          dropped N span(s) ... because the queue is full")
 */
public record RunResult(AgentSetup setup, int round, long startupMillis, double warmupSeconds, boolean settled,
                        double seconds, long responses, long errors, double p50Micros, double p99Micros,
                        double p999Micros, double cpuMicrosPerRequest, long rssKib, long heapAfterGcBytes,
                        long requestsServed, Map<String, Long> telemetry, long dropLogLines) {

    public double requestsPerSecond() {
        return seconds > 0 ? responses / seconds : 0;
    }

    public long telemetry(String counter) {
        return telemetry.getOrDefault(counter, 0L);
    }
}
