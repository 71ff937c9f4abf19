package dev.apmagent.bootstrap;

import dev.apmagent.config.Config;
import dev.apmagent.config.ConfigLoader;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * The start-up sequence: configuration and logging first, then (unless {@code enabled=false}) the tracer and the
 * reporter, then the instrumentation, then a shutdown hook that flushes. Each step that fails leaves the application
 * untouched.
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
        List<String> instrumentations = InstrumentationStarter.start(config, jvm, runtimeAttach);
        logger.info("apm-agent {} started: service_name={}, instrumentations={}, {}", AgentVersion.get(),
                config.get(CoreOptions.SERVICE_NAME), instrumentations, runtimeAttach ? "attached at runtime" : "javaagent");
    }
}
