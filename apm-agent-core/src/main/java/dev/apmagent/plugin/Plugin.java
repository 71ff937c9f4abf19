package dev.apmagent.plugin;

import java.util.List;

/**
 * A plugin for one library: its name and its instrumentations. Implementations are listed in
 * {@code META-INF/services/dev.apmagent.plugin.Plugin} and discovered at start-up.
 */
public interface Plugin {

    /** The plugin's name, also a group name for {@code disable_instrumentations} (for example {@code jdbc}). */
    String name();

    List<Instrumentation> instrumentations();
}
