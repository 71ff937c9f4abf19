package dev.apmagent.plugin;

import dev.apmagent.config.Config;
import dev.apmagent.trace.GlobalTracer;

/**
 * A plugin's options, read once into an immutable, typed snapshot and re-read only when the agent's configuration
 * snapshot changes. Helpers keep one instance in a {@code static final} field and call {@link #get()} where they need
 * an option: two volatile reads and a reference comparison, no map lookup, no parsing, no allocation.
 *
 * <pre>{@code
 * static final PluginSettings<Settings> SETTINGS = new PluginSettings<Settings>(new PluginSettings.Reader<Settings>() {
 *     public Settings read(Config config) { return new Settings(config.get(MyOptions.CAPTURE_BODY)); }
 * });
 * }</pre>
 *
 * @param <S> the plugin's snapshot type: final fields only
 */
public final class PluginSettings<S> {

    /** Builds a snapshot from the configuration; runs once per configuration, never on a hot path. */
    public interface Reader<S> {
        S read(Config config);
    }

    private final Reader<S> reader;
    private volatile Snapshot<S> current;

    public PluginSettings(Reader<S> reader) {
        this.reader = reader;
    }

    /** The snapshot of the running agent's configuration (of the defaults before the agent starts). */
    public S get() {
        Config config = GlobalTracer.config();
        Snapshot<S> s = current;
        if (s == null || s.config != config) {
            s = new Snapshot<S>(config, reader.read(config == null ? Config.defaults() : config));
            current = s; // a racing thread may build an equal snapshot too; both are correct
        }
        return s.settings;
    }

    private static final class Snapshot<S> {
        final Config config;
        final S settings;

        Snapshot(Config config, S settings) {
            this.config = config;
            this.settings = settings;
        }
    }
}
