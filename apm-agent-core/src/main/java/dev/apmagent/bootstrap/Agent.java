package dev.apmagent.bootstrap;

import dev.apmagent.report.AgentVersion;

import dev.apmagent.config.Config;
import dev.apmagent.config.ConfigLoader;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.plugin.AgentScheduler;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.report.ApmReporter;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Tracer;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * The start-up sequence: configuration and logging first; then, unless {@code enabled=false}, the reporter (its
 * rings; no thread yet), the tracer, which plugin helpers reach through {@link GlobalTracer}, the instrumentation,
 * and last the reporter's threads and a shutdown hook that flushes what is buffered, bounded by
 * {@code flush_timeout}.
 */
final class Agent {

    private Agent() {
    }

    static void start(String agentArgs, Instrumentation jvm, boolean runtimeAttach, File agentJarDirectory) {
        ConfigLoader.Result loaded = ConfigLoader.load(agentArgs, ConfigLoader.systemProperties(), System.getenv(), agentJarDirectory);
        loaded.initLogging();
        Logger logger = AgentLog.get(Agent.class);
        Config config = loaded.config();
        if (!config.get(CoreOptions.ENABLED)) {
            logger.info("apm-agent {} is disabled (enabled=false): no instrumentation is installed", AgentVersion.get());
            return;
        }
        final ApmReporter reporter = new ApmReporter(config);
        Tracer tracer = new Tracer(config, reporter);
        GlobalTracer.set(tracer, config);
        reporter.addMetricSource(PluginHealth.metrics());
        AgentScheduler.start();
        List<String> instrumentations = InstrumentationStarter.start(config, jvm, runtimeAttach);
        reporter.start();
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                reporter.close();
                AgentLog.flushSuppressed();
            }
        }, "apm-agent-shutdown"));
        logger.info("apm-agent {} started: service_name={}, instrumentations={}, object_pool={}, {}", AgentVersion.get(),
                config.get(CoreOptions.SERVICE_NAME), instrumentations, tracer.poolStrategy(),
                runtimeAttach ? "attached at runtime" : "javaagent");
    }
}
