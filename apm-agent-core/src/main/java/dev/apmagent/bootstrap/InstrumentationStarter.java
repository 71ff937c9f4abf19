package dev.apmagent.bootstrap;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.instrument.InstrumentationInstaller;
import dev.apmagent.instrument.InstrumentationSelection;
import dev.apmagent.instrument.PluginRegistry;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Discovers, selects and installs the instrumentations. Kept apart from {@link Agent} so that a disabled agent never
 * loads ByteBuddy or any instrumentation class.
 */
final class InstrumentationStarter {

    private static final Logger logger = AgentLog.get(InstrumentationStarter.class);

    private InstrumentationStarter() {
    }

    static List<String> start(Config config, java.lang.instrument.Instrumentation jvm, boolean runtimeAttach) {
        ClassLoader agentLoader = InstrumentationStarter.class.getClassLoader();
        List<Plugin> plugins = PluginRegistry.discover(agentLoader);
        InstrumentationSelection selection = new InstrumentationSelection(config.get(CoreOptions.ENABLE_INSTRUMENTATIONS),
                config.get(CoreOptions.DISABLE_INSTRUMENTATIONS), config.get(CoreOptions.ENABLE_EXPERIMENTAL_INSTRUMENTATIONS));
        for (String warning : selection.warnings(plugins)) {
            logger.warn("{}", warning);
        }
        List<Instrumentation> selected = selection.select(plugins);
        InstrumentationInstaller.Installed installed = InstrumentationInstaller.install(jvm, selected, agentLoader, runtimeAttach);
        Set<String> names = new LinkedHashSet<String>();
        for (Instrumentation instrumentation : selected) {
            names.add(instrumentation.name());
        }
        logger.debug("{} types instrumented at start-up, {} errors", installed.transformedTypes(), installed.errors());
        return new ArrayList<String>(names);
    }
}
