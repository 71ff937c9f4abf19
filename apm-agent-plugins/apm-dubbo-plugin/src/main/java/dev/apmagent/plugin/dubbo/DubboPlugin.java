package dev.apmagent.plugin.dubbo;

import dev.apmagent.config.Config;
import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.OptionProvider;
import dev.apmagent.config.Parsers;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import dev.apmagent.plugin.PluginSettings;

import java.util.Collections;
import java.util.List;

/**
 * Apache Dubbo RPC: exit spans for outgoing invocations, transactions for incoming ones. The plugin (one
 * instrumentation, {@link DubboInstrumentation}), its one option, and the snapshot of it that {@link DubboHelper}
 * reads.
 */
public final class DubboPlugin implements Plugin, OptionProvider, PluginSettings.Reader<DubboPlugin.Settings> {

    static final String NAME = "dubbo";

    public static final ConfigOption<Long> DUBBO_ASYNC_GRACE = ConfigOption.of("dubbo_async_grace", "Duration", "10s",
            Parsers.durationMillis("ms"),
            "An asynchronous Dubbo invocation whose result never arrives is ended by the agent this long after the invocation's own "
                    + "timeout (outcome failure, result Timeout), so a future that never completes cannot hold its span or transaction.");

    static final PluginSettings<Settings> settings = new PluginSettings<Settings>(new DubboPlugin());

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Instrumentation> instrumentations() {
        return Collections.<Instrumentation>singletonList(new DubboInstrumentation());
    }

    @Override
    public List<ConfigOption<?>> options() {
        return Collections.<ConfigOption<?>>singletonList(DUBBO_ASYNC_GRACE);
    }

    @Override
    public String category() {
        return "RPC";
    }

    /** The snapshot of the options, made once per configuration. */
    @Override
    public Settings read(Config config) {
        return new Settings(config.get(DUBBO_ASYNC_GRACE));
    }

    /** The option as the helper uses it. */
    static final class Settings {
        /** How long after its own timeout an asynchronous invocation whose result never came is ended. */
        final long graceMillis;

        Settings(long graceMillis) {
            this.graceMillis = graceMillis;
        }
    }
}
