package dev.apmagent.plugin;

import dev.apmagent.metrics.MetricName;
import dev.apmagent.metrics.MetricSink;
import dev.apmagent.metrics.MetricSource;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * A plugin's failure and activity counters, reported in the agent's health metrics: every {@code metrics_interval},
 * one metricset per plugin tagged {@code plugin: <name>}, with {@code agent.plugin.failures} (exceptions caught by the
 * plugin's barriers: a defect of ours or a library version we did not expect) and one {@code agent.plugin.<counter>}
 * sample per activity counter, each the change since the previous collection.
 *
 * <p>Counting is a {@link LongAdder} increment: no lock, no allocation, no logging on the application's thread.
 * Plugins hold their instance in a {@code static final} field: {@code PluginHealth.of("jdbc")}.
 */
public final class PluginHealth {

    private static final MetricName FAILURES = MetricName.of("agent.plugin.failures");
    private static final AtomicReference<PluginHealth[]> registered = new AtomicReference<PluginHealth[]>(new PluginHealth[0]);

    private final String plugin;
    private final LongAdder failures = new LongAdder();
    private final AtomicReference<Counter[]> counters = new AtomicReference<Counter[]>(new Counter[0]);
    private long reportedFailures;

    private PluginHealth(String plugin) {
        this.plugin = plugin;
    }

    /** The counters of {@code plugin}, created and registered on first use (class initialization, not a hot path). */
    public static PluginHealth of(String plugin) {
        while (true) {
            PluginHealth[] all = registered.get();
            for (PluginHealth h : all) {
                if (h.plugin.equals(plugin)) {
                    return h;
                }
            }
            PluginHealth created = new PluginHealth(plugin);
            if (registered.compareAndSet(all, append(all, created))) {
                return created;
            }
        }
    }

    /** Counts an exception a barrier caught. */
    public void failure() {
        failures.increment();
    }

    /** Exceptions caught by this plugin's barriers since start. */
    public long failures() {
        return failures.sum();
    }

    /** An activity counter of this plugin, reported as {@code agent.plugin.<name>}; created on first use. */
    public Counter counter(String name) {
        while (true) {
            Counter[] all = counters.get();
            for (Counter c : all) {
                if (c.name.name().equals("agent.plugin." + name)) {
                    return c;
                }
            }
            Counter created = new Counter(MetricName.of("agent.plugin." + name));
            if (counters.compareAndSet(all, append(all, created))) {
                return created;
            }
        }
    }

    /** Reports every registered plugin's counters; collected on the reporter thread only. */
    public static MetricSource metrics() {
        return new MetricSource() {
            @Override
            public void collect(long epochMicros, MetricSink sink) {
                for (PluginHealth h : registered.get()) {
                    h.collect(epochMicros, sink);
                }
            }
        };
    }

    private void collect(long epochMicros, MetricSink sink) {
        sink.startSet(epochMicros, "plugin", plugin);
        long f = failures.sum();
        sink.sample(FAILURES, f - reportedFailures);
        reportedFailures = f;
        for (Counter c : counters.get()) {
            long v = c.sum();
            sink.sample(c.name, v - c.reported);
            c.reported = v;
        }
        sink.endSet();
    }

    @SuppressWarnings("unchecked")
    private static <T> T[] append(T[] all, T added) {
        T[] copy = java.util.Arrays.copyOf(all, all.length + 1);
        copy[all.length] = added;
        return copy;
    }

    /** One activity counter: {@link #increment()} on any thread. */
    public static final class Counter {
        private final MetricName name;
        private final LongAdder adder = new LongAdder();
        /** Reporter thread only. */
        private long reported;

        private Counter(MetricName name) {
            this.name = name;
        }

        public void increment() {
            adder.increment();
        }

        public long sum() {
            return adder.sum();
        }
    }
}
