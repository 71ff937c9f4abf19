package dev.apmagent.config;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An immutable snapshot of every option's value, resolved once at start-up by {@link ConfigLoader}. Hot code never
 * reads it per call: components copy what they need into final fields when they are built.
 */
public final class Config {

    private static final Config DEFAULTS = new Config(Collections.<String, Object>emptyMap(), Collections.<String>emptySet(),
            Collections.<String, ConfigOption<?>>emptyMap());

    private final Map<String, Object> values;
    private final Set<String> explicitKeys;
    /** The registered options by key (empty for snapshots not made by the loader). */
    private final Map<String, ConfigOption<?>> options;

    private Config(Map<String, Object> values, Set<String> explicitKeys, Map<String, ConfigOption<?>> options) {
        this.values = values;
        this.explicitKeys = explicitKeys;
        this.options = options;
    }

    /** Every option at its default. */
    public static Config defaults() {
        return DEFAULTS;
    }

    /** A snapshot from already-parsed values, keyed by option key; options not in the map take their default. */
    public static Config ofParsed(Map<String, Object> parsedByKey) {
        Map<String, Object> copy = new HashMap<String, Object>(parsedByKey);
        return new Config(Collections.unmodifiableMap(copy), Collections.unmodifiableSet(new HashSet<String>(copy.keySet())),
                Collections.<String, ConfigOption<?>>emptyMap());
    }

    /** Used by the loader: {@code values} may hold derived values (such as service_name) that no source set. */
    static Config of(Map<String, Object> values, Set<String> explicitKeys, Collection<ConfigOption<?>> registered) {
        Map<String, ConfigOption<?>> options = new HashMap<String, ConfigOption<?>>();
        for (ConfigOption<?> option : registered) {
            options.put(option.key(), option);
        }
        return new Config(Collections.unmodifiableMap(new HashMap<String, Object>(values)),
                Collections.unmodifiableSet(new HashSet<String>(explicitKeys)), Collections.unmodifiableMap(options));
    }

    @SuppressWarnings("unchecked")
    public <T> T get(ConfigOption<T> option) {
        Object value = values.get(option.key());
        return value != null ? (T) value : option.defaultValue();
    }

    /** The options registered when this snapshot was loaded (none for snapshots made from parsed values). */
    public Collection<ConfigOption<?>> registeredOptions() {
        return options.values();
    }

    /**
     * Whether a source set this option explicitly (as opposed to it taking its default, or a value the agent
     * derived, such as a service_name taken from the main class).
     */
    public boolean isSet(ConfigOption<?> option) {
        return explicitKeys.contains(option.key());
    }

    /** Names the explicitly set options only; values are never printed here (some are secrets). */
    @Override
    public String toString() {
        return "Config" + new TreeSet<String>(explicitKeys);
    }
}
