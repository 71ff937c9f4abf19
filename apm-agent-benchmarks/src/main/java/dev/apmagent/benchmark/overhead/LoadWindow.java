package dev.apmagent.benchmark.overhead;

/**
 * One window of a load run: the successful responses, the failed ones, how long the window lasted, and the latency
 * percentiles of the successful responses in nanoseconds (send to last byte).
 */
public record LoadWindow(long responses, long errors, double seconds, long p50Nanos, long p99Nanos, long p999Nanos) {

    public double perSecond() {
        return seconds > 0 ? responses / seconds : 0;
    }
}
