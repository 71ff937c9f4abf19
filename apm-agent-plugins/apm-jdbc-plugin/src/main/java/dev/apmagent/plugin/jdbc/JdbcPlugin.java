package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * JDBC: spans for statements ({@code jdbc-statement}) and connection acquisition ({@code jdbc-connection}) on any
 * driver and pool, through the {@code java.sql}/{@code javax.sql} interfaces. See the module's README.
 */
public final class JdbcPlugin implements Plugin {

    @Override
    public String name() {
        return JdbcInstrumentation.GROUP;
    }

    @Override
    public List<Instrumentation> instrumentations() {
        List<Instrumentation> all = new ArrayList<Instrumentation>();
        all.addAll(StatementInstrumentation.all());
        all.addAll(ConnectionInstrumentation.all());
        all.addAll(ConnectInstrumentation.all());
        return Collections.unmodifiableList(all);
    }
}
