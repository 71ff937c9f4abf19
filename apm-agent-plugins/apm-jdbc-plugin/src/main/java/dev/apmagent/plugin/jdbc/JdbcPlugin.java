package dev.apmagent.plugin.jdbc;

import dev.apmagent.config.Config;
import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.OptionProvider;
import dev.apmagent.config.Parsers;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import dev.apmagent.plugin.PluginSettings;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JDBC: spans for statements and connection acquisition on any driver and pool, through the
 * {@code java.sql}/{@code javax.sql} interfaces. Its name is the group of all its instrumentations; the group names
 * {@code jdbc-statement} (statements, and prepare/close on connections) and {@code jdbc-connection}
 * ({@code Driver.connect}, {@code DataSource.getConnection}) keep disabling what they always did. See the module's README.
 */
public final class JdbcPlugin implements Plugin, OptionProvider, PluginSettings.Reader<JdbcPlugin.Settings> {

    static final String NAME = "jdbc";

    public static final ConfigOption<Long> CONNECTION_SPAN_MIN_DURATION = ConfigOption.of(
            "jdbc_connection_span_min_duration", "Duration", "1ms", Parsers.durationMillis("ms"),
            "DataSource.getConnection() is recorded as a span only when it took at least this long, failed, or opened"
                    + " a new physical connection: a pool hands out an idle connection in microseconds, and a span for"
                    + " each would be a third of the events of a typical request. A millisecond still shows a pool that"
                    + " ran out of connections (the wait), a validation round trip and every new connection; 0 records"
                    + " every call.");

    static final PluginSettings<Settings> settings = new PluginSettings<Settings>(new JdbcPlugin());

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Instrumentation> instrumentations() {
        return Collections.unmodifiableList(Arrays.<Instrumentation>asList(
                new StatementInstrumentation(),
                new ConnectionPrepareInstrumentation(),
                new DriverConnectInstrumentation(),
                new DataSourceGetConnectionInstrumentation()));
    }

    @Override
    public List<ConfigOption<?>> options() {
        return Collections.<ConfigOption<?>>singletonList(CONNECTION_SPAN_MIN_DURATION);
    }

    @Override
    public String category() {
        return "Database";
    }

    @Override
    public Settings read(Config config) {
        return new Settings(TimeUnit.MILLISECONDS.toNanos(config.get(CONNECTION_SPAN_MIN_DURATION)));
    }

    /** The options, read once per configuration. */
    static final class Settings {
        final long connectionSpanMinDurationNanos;

        Settings(long connectionSpanMinDurationNanos) {
            this.connectionSpanMinDurationNanos = connectionSpanMinDurationNanos;
        }
    }
}
