package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides which instrumentations are installed from {@code enable_instrumentations} and
 * {@code disable_instrumentations}. Both match an instrumentation's own name, any of its group names, or its
 * plugin's name, case-insensitively. Disabling wins over enabling; an empty enable list enables everything. An
 * instrumentation of the {@value Instrumentation#EXPERIMENTAL} group is selected only with
 * {@code enable_experimental_instrumentations=true}.
 * {@link #warnings} names what a user should hear about: names that match nothing (a typo such as {@code jbdc}) and a
 * selection that installs nothing.
 */
public final class InstrumentationSelection {

    private final List<String> enabled;
    private final List<String> disabled;
    private final boolean experimental;

    /** Without the experimental instrumentations. */
    public InstrumentationSelection(Collection<String> enableInstrumentations, Collection<String> disableInstrumentations) {
        this(enableInstrumentations, disableInstrumentations, false);
    }

    public InstrumentationSelection(Collection<String> enableInstrumentations, Collection<String> disableInstrumentations,
                                    boolean enableExperimental) {
        this.enabled = lowerCase(enableInstrumentations);
        this.disabled = lowerCase(disableInstrumentations);
        this.experimental = enableExperimental;
    }

    public boolean isSelected(Plugin plugin, Instrumentation instrumentation) {
        if (matchesAny(disabled, plugin, instrumentation)) {
            return false;
        }
        if (!experimental && instrumentation.groupNames().contains(Instrumentation.EXPERIMENTAL)) {
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

    /**
     * One line per problem, for WARN: each option's names that match no plugin, instrumentation or group (with the
     * names that do), and a selection that leaves no instrumentation of {@code plugins} to install.
     */
    public List<String> warnings(List<Plugin> plugins) {
        Set<String> known = new TreeSet<String>();
        for (Plugin plugin : plugins) {
            known.add(plugin.name().toLowerCase(Locale.ROOT));
            for (Instrumentation instrumentation : plugin.instrumentations()) {
                known.add(instrumentation.name().toLowerCase(Locale.ROOT));
                for (String group : instrumentation.groupNames()) {
                    known.add(group.toLowerCase(Locale.ROOT));
                }
            }
        }
        List<String> warnings = new ArrayList<String>(3);
        unknownNames("enable_instrumentations", enabled, known, warnings);
        unknownNames("disable_instrumentations", disabled, known, warnings);
        if (!known.isEmpty() && select(plugins).isEmpty()) {
            warnings.add("No instrumentation is installed: enable_instrumentations=" + join(enabled)
                    + " and disable_instrumentations=" + join(disabled) + " leave none of " + known.size()
                    + " names selected, so the agent traces nothing");
        }
        return warnings;
    }

    private static void unknownNames(String option, List<String> names, Set<String> known, List<String> warnings) {
        List<String> unknown = new ArrayList<String>();
        for (String name : names) {
            if (!known.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            warnings.add(option + " names " + (unknown.size() == 1 ? "an instrumentation that does not exist: "
                    : "instrumentations that do not exist: ") + join(unknown) + " (ignored); valid names (instrumentations,"
                    + " groups and plugins) are " + join(known));
        }
    }

    private static String join(Collection<String> names) {
        return names.isEmpty() ? "(empty)" : String.join(",", names);
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
