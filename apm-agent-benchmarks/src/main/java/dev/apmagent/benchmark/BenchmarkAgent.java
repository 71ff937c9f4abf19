package dev.apmagent.benchmark;

import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.config.Config;
import dev.apmagent.instrument.InstrumentationInstaller;
import dev.apmagent.plugin.Plugin;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import net.bytebuddy.agent.ByteBuddyAgent;

import java.util.Collections;
import java.util.function.Function;

/**
 * One plugin installed into a benchmark's JVM as an attach installs it, and a running tracer (the plugins'
 * {@link GlobalTracer}) whose events go to a {@link ReleasingReporter}, through whatever the benchmark's test puts in
 * front of it: the set-up of the benchmarks that measure a plugin with and without the agent.
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

    /** Installs {@code plugin}'s instrumentations and starts a tracer reporting to {@code reportTo(releasing reporter)}. */
    public static BenchmarkAgent install(Plugin plugin, Function<ReleasingReporter, Reporter> reportTo) {
        InstrumentationInstaller.Installed installed = InstrumentationInstaller.install(ByteBuddyAgent.install(),
                plugin.instrumentations(), plugin.getClass().getClassLoader(), true);
        ReleasingReporter reporter = new ReleasingReporter(8192).start();
        Config config = Config.ofParsed(Collections.<String, Object>singletonMap("max_queue_size", 4096));
        Tracer tracer = new Tracer(config, reportTo.apply(reporter));
        GlobalTracer.set(tracer, config);
        return new BenchmarkAgent(installed, reporter, tracer);
    }

    /**
     * Stops the tracer and the reporter. The instrumentation stays: removing it retransforms every loaded class, which
     * allocates tens of MB and would count into the trial's last iteration; a JVM that goes on calls {@link #uninstall}.
     */
    public void stop() throws InterruptedException {
        GlobalTracer.set(null, null);
        reporter.close();
    }

    /** Starts a root transaction and activates it on this thread: the parent of one traced call. */
    public Transaction startTransaction() {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        return t;
    }

    /** Deactivates and ends what {@link #startTransaction} returned. */
    public void endTransaction(Transaction t) {
        tracer.deactivate(t);
        t.end();
    }

    /** Removes the instrumentation, after {@link #stop} (tests; a JMH fork just ends). */
    public void uninstall() {
        if (installed != null) {
            installed.uninstall(ByteBuddyAgent.install());
            installed = null;
        }
    }
}
