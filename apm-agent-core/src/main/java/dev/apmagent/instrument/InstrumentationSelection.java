package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Decides which instrumentations are installed from {@code enable_instrumentations} and
 * {@code disable_instrumentations}. Both match an instrumentation's own name, any of its group names, or its
 * plugin's name, case-insensitively. Disabling wins over enabling; an empty enable list enables everything.
 */
public final class InstrumentationSelection {

    private final List<String> enabled;
    private final List<String> disabled;

    public InstrumentationSelection(Collection<String> enableInstrumentations, Collection<String> disableInstrumentations) {
        this.enabled = lowerCase(enableInstrumentations);
        this.disabled = lowerCase(disableInstrumentations);
    }

    public boolean isSelected(Plugin plugin, Instrumentation instrumentation) {
        if (matchesAny(disabled, plugin, instrumentation)) {
            return false;
        }
        return enabled.isEmpty() || matchesAny(enabled, plugin, instrumentation);
    }

    /** The selected instrumentations of all plugins, in plugin order. */
    public List<Instrumentation> select(List<Plugin> plugins) {
        List<Instrumentation> out = new ArrayList<Instrumentation>();
        for (Plugin plugin : plugins) {
            for (Instrumentation instrumentation : plugin.instrumentations()) {
                if (isSelected(plugin, instrumentation)) {
                    out.add(instrumentation);
                }
            }
        }
        return out;
    }

    private static boolean matchesAny(List<String> names, Plugin plugin, Instrumentation instrumentation) {
        if (names.isEmpty()) {
            return false;
        }
        if (names.contains(plugin.name().toLowerCase(Locale.ROOT)) || names.contains(instrumentation.name().toLowerCase(Locale.ROOT))) {
            return true;
        }
        for (String group : instrumentation.groupNames()) {
            if (names.contains(group.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static List<String> lowerCase(Collection<String> names) {
        List<String> out = new ArrayList<String>();
        if (names != null) {
            for (String name : names) {
                out.add(name.trim().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }
}
