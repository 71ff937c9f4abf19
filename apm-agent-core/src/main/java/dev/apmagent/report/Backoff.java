package dev.apmagent.report;

/**
 * Delay before the next request after consecutive failures: {@code min(n, 6)^2} units (1, 4, 9, 16, 25, 36 s with
 * the default unit of one second) with +-10% jitter, so a fleet of agents does not reconnect in lock-step. The same
 * curve as the Elastic agent, so APM Server operators see familiar behaviour.
 */
final class Backoff {

    private Backoff() {
    }

    /** The delay in ms after {@code failures} consecutive failures, {@code jitter} in [-1, 1] scaling +-10%. */
    static long delayMillis(int failures, long unitMillis, double jitter) {
        if (failures <= 0) {
            return 0;
        }
        long n = Math.min(failures, 6);
        long base = n * n * unitMillis;
        double j = Math.max(-1, Math.min(1, jitter));
        return Math.max(0, Math.round(base * (1 + 0.1 * j)));
    }
}
