package dev.apmagent.plugin.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.Span;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import testjdbc.CountingDriver;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proves the agent asks nothing of the database: the same HikariCP workload runs over a counting wrapper driver
 * without and with the agent (inside transactions, so every statement gets a span), and every call that reaches the
 * database side (connections, statements created and executed, metadata) is counted. The counts must be equal and
 * contain no metadata request. The wrapper's connections cannot be unwrapped, like many proxies, so the spans can only
 * learn the database from the driver's own (nested) calls.
 */
class NoExtraDatabaseCallsTest {

    private static final String URL = CountingDriver.PREFIX + "h2:mem:counted;DB_CLOSE_DELAY=-1";

    private PluginAgent agent;

    @AfterEach
    void tearDown() {
        if (agent != null) {
            agent.uninstall();
            agent.stopTracer();
        }
    }

    @Test
    void theAgentAddsNoStatementsAndNoMetadataCalls() throws Exception {
        CountingDriver.register();
        createTable();

        CountingDriver.reset();
        workload();
        Map<String, Long> withoutAgent = CountingDriver.counts();

        agent = AbstractJdbcScenarios.installJdbc();
        agent.startTracer(Collections.<String, Object>emptyMap());
        CountingDriver.reset();
        agent.inTransaction(() -> {
            workload();
            return null;
        });
        Map<String, Long> withAgent = CountingDriver.counts();

        assertEquals(withoutAgent, withAgent, "calls that reached the database");
        assertTrue(withAgent.get("PreparedStatement.executeQuery") >= 20, withAgent.toString());
        assertFalse(withAgent.containsKey("Connection.getMetaData"), withAgent.toString());

        List<Span> spans = agent.spans();
        int queries = 0;
        for (Span span : spans) {
            assertEquals("h2", span.subtype(), "vendor learnt from the driver's nested call: " + span.name());
            assertEquals("counted", span.context().db().instance().toString());
            if (!"connect".equals(span.action())) {
                queries++;
            }
        }
        assertEquals(21, queries, PluginAgent.describe(spans));
    }

    private static void createTable() throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(URL, "sa", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS counted (id INT PRIMARY KEY, name VARCHAR(20))");
            s.execute("MERGE INTO counted KEY (id) VALUES (1, 'one')");
        }
    }

    /** A new pool (so it also opens connections), 20 prepared queries and one plain one. */
    private static void workload() throws SQLException {
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(URL);
            pool.setUsername("sa");
            pool.setPassword("");
            pool.setMaximumPoolSize(1);
            pool.setMinimumIdle(1);
            for (int i = 0; i < 20; i++) {
                try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT name FROM counted WHERE id = ?")) {
                    ps.setInt(1, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                    }
                }
            }
            try (Connection c = pool.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM counted")) {
                assertTrue(rs.next());
            }
        }
    }
}
