package dev.apmagent.benchmark;

import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.config.Config;
import dev.apmagent.instrument.InstrumentationInstaller;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Tracer;
import net.bytebuddy.agent.ByteBuddyAgent;

import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * A plugin's real instrumentation installed into the benchmark's JVM, with a global tracer whose events go to a
 * {@link ReleasingReporter}: the {@code idle} and {@code agent} modes of the plugin benchmarks.
 */
public final class BenchmarkAgent {

    public final ReleasingReporter reporter;
    public final Tracer tracer;
    private InstrumentationInstaller.Installed installed;

    private BenchmarkAgent(InstrumentationInstaller.Installed installed, ReleasingReporter reporter, Tracer tracer) {
        this.installed = installed;
        this.reporter = reporter;
        this.tracer = tracer;
    }

    /**
     * Installs {@code instrumentations} (their advice loaded from {@code pluginLoader}) and sets the global tracer.
     *
     * @param reportTo what the tracer reports to, given the releasing reporter (a test puts a recorder in front)
     */
    public static BenchmarkAgent install(List<Instrumentation> instrumentations, ClassLoader pluginLoader,
                                         Function<ReleasingReporter, Reporter> reportTo) {
        InstrumentationInstaller.Installed installed =
                InstrumentationInstaller.install(ByteBuddyAgent.install(), instrumentations, pluginLoader, true);
        ReleasingReporter reporter = new ReleasingReporter(8192).start();
        Config config = Config.ofParsed(Collections.<String, Object>singletonMap("max_queue_size", 4096));
        Tracer tracer = new Tracer(config, reportTo.apply(reporter));
        GlobalTracer.set(tracer, config);
        return new BenchmarkAgent(installed, reporter, tracer);
    }

    /**
     * Unsets the tracer and stops the reporter of {@code agent} (nothing for null: the {@code none} mode). The
     * instrumentation stays: JMH counts a trial's tear-down into its last measured iteration, and removing it
     * retransforms every loaded class, which allocates tens of MB and would add kilobytes to that iteration's B/op. A
     * fork ends anyway; a JVM that goes on (a test) calls {@link #uninstall} too.
     */
    public static void stop(BenchmarkAgent agent) throws InterruptedException {
        if (agent != null) {
            GlobalTracer.set(null, null);
            agent.reporter.close();
        }
    }

    /** Removes the instrumentation of {@code agent} (nothing for null), after {@link #stop}. */
    public static void uninstall(BenchmarkAgent agent) {
        if (agent != null && agent.installed != null) {
            agent.installed.uninstall(ByteBuddyAgent.install());
            agent.installed = null;
        }
    }
}
