package dev.apmagent.report;

import dev.apmagent.log.LogLevel;
import dev.apmagent.log.Logger;

import java.util.HashMap;
import java.util.Map;

/** Logs a kind of problem at most once per interval, saying how many repeats were suppressed. Agent threads only. */
final class RateLimitedLog {

    private final long intervalNanos;
    private final Map<String, long[]> lastByKind = new HashMap<String, long[]>();

    RateLimitedLog(long intervalMillis) {
        this.intervalNanos = intervalMillis * 1_000_000L;
    }

    void warn(String kind, Logger logger, String message, Object... args) {
        log(LogLevel.WARN, kind, logger, message, args);
    }

    void error(String kind, Logger logger, String message, Object... args) {
        log(LogLevel.ERROR, kind, logger, message, args);
    }

    synchronized void log(LogLevel level, String kind, Logger logger, String message, Object... args) {
        long now = System.nanoTime();
        long[] state = lastByKind.get(kind);
        if (state == null) {
            state = new long[] {now - intervalNanos - 1, 0};
            lastByKind.put(kind, state);
        }
        if (now - state[0] > intervalNanos) {
            long suppressed = state[1];
            state[0] = now;
            state[1] = 0;
            logger.log(level, suppressed > 0 ? message + " (" + suppressed + " similar messages suppressed)" : message, args);
        } else {
            state[1]++;
        }
    }
}
