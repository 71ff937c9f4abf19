package dev.apmagent.it.e2e;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reporter's counters as the agent logs them at debug level when it closes at JVM shutdown (the
 * {@code reporter closed: produced=.. delivered=.. dropped=.. {reasons} evicted=.. buffered=.. requests=..} line of
 * {@code ReporterStats.toString()}): the only complete account of every event that is observable from outside the JVM.
 */
final class ReporterCounters {

    private static final Pattern CLOSED = Pattern.compile("reporter closed: (.*)");
    private static final Pattern COUNTER = Pattern.compile("(?:^|[ {])([a-z_]+)=(\\d+)");

    final String line;
    private final Map<String, Long> values = new HashMap<>();

    private ReporterCounters(String line) {
        this.line = line;
        Matcher m = COUNTER.matcher(line);
        while (m.find()) {
            // top-level counters come first; per-type and per-reason values inside braces have other names
            values.putIfAbsent(m.group(1), Long.parseLong(m.group(2)));
        }
    }

    /** The last "reporter closed" line of the agent's log; fails when there is none. */
    static ReporterCounters atClose(String agentLog) {
        String last = null;
        Matcher m = CLOSED.matcher(agentLog);
        while (m.find()) {
            last = m.group(1);
        }
        if (last == null) {
            throw new AssertionError("no 'reporter closed' line in the agent log:\n" + agentLog);
        }
        return new ReporterCounters(last);
    }

    long get(String name) {
        Long v = values.get(name);
        if (v == null) {
            throw new AssertionError("no counter " + name + " in " + line);
        }
        return v;
    }

    long produced() {
        return get("produced");
    }

    long delivered() {
        return get("delivered");
    }

    long dropped() {
        return get("dropped");
    }

    long evicted() {
        return get("evicted");
    }

    long buffered() {
        return get("buffered");
    }

    @Override
    public String toString() {
        return line;
    }
}
