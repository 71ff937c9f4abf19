package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * JDBC: spans for statements and connection acquisition on any driver and pool, through the
 * {@code java.sql}/{@code javax.sql} interfaces. Its name is the group of all its instrumentations; the group names
 * {@code jdbc-statement} (statements, and prepare/close on connections) and {@code jdbc-connection}
 * ({@code Driver.connect}, {@code DataSource.getConnection}) keep disabling what they always did. See the module's README.
 */
public final class JdbcPlugin implements Plugin {

    static final String NAME = "jdbc";

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
}
