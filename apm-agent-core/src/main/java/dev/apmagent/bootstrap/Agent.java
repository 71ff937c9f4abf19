package dev.apmagent.bootstrap;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.Map;

/** The start-up sequence of the agent. */
final class Agent {

    private static final Logger logger = AgentLog.get(Agent.class);

    private Agent() {
    }

    static void start(String agentArgs, Instrumentation jvm, boolean runtimeAttach, File agentJarDirectory) {
        Config config = loadConfig(agentArgs);
        if (!config.get(CoreOptions.ENABLED)) {
            logger.info("apm-agent {} is disabled (enabled=false): no instrumentation is installed", AgentVersion.get());
            return;
        }
        InstrumentationStarter.start(config, jvm, runtimeAttach);
    }

    private static Config loadConfig(String agentArgs) {
        Map<String, Object> values = new HashMap<String, Object>();
        if (agentArgs != null) {
            for (String pair : agentArgs.split(",")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).trim().equals("enabled")) {
                    values.put("enabled", Boolean.valueOf(pair.substring(eq + 1).trim()));
                }
            }
        }
        return Config.ofParsed(values);
    }
}
