package dev.apmagent.config;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * An immutable snapshot of every option's value, resolved once at start-up. Hot code never reads it per call:
 * components copy what they need into final fields when they are built.
 */
public final class Config {

    private static final Config DEFAULTS = new Config(Collections.<String, Object>emptyMap());

    private final Map<String, Object> values;

    private Config(Map<String, Object> values) {
        this.values = values;
    }

    /** Every option at its default. */
    public static Config defaults() {
        return DEFAULTS;
    }

    /** A snapshot from already-parsed values, keyed by option key; options not in the map take their default. */
    public static Config ofParsed(Map<String, Object> parsedByKey) {
        return new Config(Collections.unmodifiableMap(new HashMap<String, Object>(parsedByKey)));
    }

    @SuppressWarnings("unchecked")
    public <T> T get(ConfigOption<T> option) {
        Object value = values.get(option.key());
        return value != null ? (T) value : option.defaultValue();
    }

    /** Whether a source set this option explicitly (as opposed to it taking its default). */
    public boolean isSet(ConfigOption<?> option) {
        return values.containsKey(option.key());
    }
}
