package dev.apmagent.plugin.jdbc;

import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The JDBC scenarios on H2 in memory, through the H2 driver and through HikariCP. */
class H2JdbcTest extends AbstractJdbcScenarios {

    static final String URL = "jdbc:h2:mem:apmtest;DB_CLOSE_DELAY=-1";

    @Override
    protected String url() {
        return URL;
    }

    @Override
    protected String user() {
        return "sa";
    }

    @Override
    protected String password() {
        return "";
    }

    @Override
    protected String vendor() {
        return "h2";
    }

    @Override
    protected String instance() {
        return "apmtest";
    }

    @Override
    protected String address() {
        return null;
    }

    @Override
    protected int port() {
        return -1;
    }

    @Override
    protected void createTwiceFunction(Statement statement) throws SQLException {
        statement.execute("CREATE ALIAS IF NOT EXISTS apm_twice FOR \"" + H2Functions.class.getName() + ".twice\"");
    }

    /**
     * Application code running inside a statement (an H2 Java function) that starts its own span and runs a query:
     * the query inside gets its own span under the application's span, and the outer statement's span still ends.
     */
    @Test
    void applicationCodeInsideAStatementMayTraceItsOwnQueries() throws Exception {
        int result = agent.inTransaction(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute("CREATE ALIAS IF NOT EXISTS apm_count FOR \"" + H2Functions.class.getName() + ".countWithSpan\"");
                try (ResultSet rs = s.executeQuery("SELECT apm_count()")) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
        assertEquals(3, result);
        Span outer = spanNamed("SELECT");
        Span app = spanNamed("inside the database");
        Span inner = spanNamed("SELECT FROM " + TABLE);
        PluginAgent.assertChildOf(outer, app);
        PluginAgent.assertChildOf(app, inner);
        assertEquals("db", inner.type()); // H2 gives the function the URL jdbc:default:connection: vendor unknown
    }

    /** Java functions H2 calls. */
    public static final class H2Functions {
        public static int twice(int x) {
            return 2 * x;
        }

        public static int countWithSpan(Connection connection) throws SQLException {
            Tracer tracer = GlobalTracer.get();
            Span span = tracer.createSpan();
            span.setName("inside the database");
            span.setType("app", "internal", null);
            tracer.activate(span);
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + TABLE)) {
                rs.next();
                return rs.getInt(1);
            } finally {
                tracer.deactivate(span);
                span.end();
            }
        }
    }
}
