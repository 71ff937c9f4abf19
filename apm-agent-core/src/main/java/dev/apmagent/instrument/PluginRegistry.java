package dev.apmagent.instrument;

import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.plugin.Plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds the plugins in the agent jar ({@code META-INF/services/dev.apmagent.plugin.Plugin}); a plugin that fails to load is skipped and logged. */
public final class PluginRegistry {

    private static final Logger logger = AgentLog.get(PluginRegistry.class);

    private PluginRegistry() {
    }

    public static List<Plugin> discover(ClassLoader agentLoader) {
        List<Plugin> plugins = new ArrayList<Plugin>();
        Iterator<Plugin> it = ServiceLoader.load(Plugin.class, agentLoader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                plugins.add(it.next());
            } catch (ServiceConfigurationError e) {
                logger.warn("a plugin could not be loaded and is skipped: {}", e.getMessage());
            }
        }
        Collections.sort(plugins, new Comparator<Plugin>() {
            @Override
            public int compare(Plugin a, Plugin b) {
                return a.name().compareTo(b.name());
            }
        });
        return plugins;
    }
}
