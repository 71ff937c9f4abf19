package dev.apmagent.benchmark;

import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.config.Config;
import dev.apmagent.instrument.InstrumentationInstaller;
import dev.apmagent.plugin.Plugin;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Tracer;
import net.bytebuddy.agent.ByteBuddyAgent;

import java.util.Collections;
import java.util.function.Function;

/**
 * The {@code idle} and {@code agent} modes of a benchmark of library calls ({@code DubboCallBenchmark},
 * {@code OkHttpCallBenchmark}): a plugin's real instrumentation installed into the benchmark's own JVM, as an attach
 * installs it, and the global tracer, whose events a {@link ReleasingReporter} recycles on its own thread.
 */
public final class InstalledPlugin {

    /** The reporter behind the tracer (the benchmark's test may put a recorder in front of it). */
    public final ReleasingReporter reporter;
    public final Tracer tracer;
    private InstrumentationInstaller.Installed installed;

    private InstalledPlugin(InstrumentationInstaller.Installed installed, ReleasingReporter reporter, Tracer tracer) {
        this.installed = installed;
        this.reporter = reporter;
        this.tracer = tracer;
    }

    /**
     * Installs {@code plugin}'s instrumentations and sets a tracer ({@code max_queue_size} 4096) that reports to what
     * {@code reportTo} makes of a started {@link ReleasingReporter}.
     */
    public static InstalledPlugin install(Plugin plugin, Function<ReleasingReporter, Reporter> reportTo) {
        InstrumentationInstaller.Installed installed = InstrumentationInstaller.install(ByteBuddyAgent.install(),
                plugin.instrumentations(), plugin.getClass().getClassLoader(), true);
        ReleasingReporter reporter = new ReleasingReporter(8192).start();
        Config config = Config.ofParsed(Collections.<String, Object>singletonMap("max_queue_size", 4096));
        Tracer tracer = new Tracer(config, reportTo.apply(reporter));
        GlobalTracer.set(tracer, config);
        return new InstalledPlugin(installed, reporter, tracer);
    }

    /**
     * Unsets the tracer and stops the reporter. The instrumentation stays: JMH counts the trial's tear-down into the last
     * measured iteration, and removing it retransforms every loaded class, which allocates tens of MB and would add
     * kilobytes to that iteration's B/op. The fork ends anyway; a JVM that goes on (a test) calls {@link #uninstall}.
     */
    public void stopTracing() throws InterruptedException {
        GlobalTracer.set(null, null);
        reporter.close();
    }

    /** Removes the instrumentation, after {@link #stopTracing}. */
    public void uninstall() {
        if (installed != null) {
            installed.uninstall(ByteBuddyAgent.install());
            installed = null;
        }
    }
}
