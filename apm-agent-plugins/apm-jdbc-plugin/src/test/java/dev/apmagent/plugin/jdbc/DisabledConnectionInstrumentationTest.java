package dev.apmagent.plugin.jdbc;

import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.Span;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code disable_instrumentations} with the names the documentation gives: {@code jdbc-connection} (no connection
 * spans; statement spans still name the database, now learnt from one {@code getMetaData().getURL()} per physical
 * connection, never one per statement), {@code jdbc-statement} and {@code jdbc}.
 */
class DisabledConnectionInstrumentationTest {

    private PluginAgent agent;

    @AfterEach
    void tearDown() {
        if (agent != null) {
            agent.uninstall();
            agent.stopTracer();
        }
    }

    @Test
    void noConnectSpansAndOneMetadataLookupPerConnection() throws Exception {
        long lookups = AbstractJdbcScenarios.metadataLookups();
        List<Span> spans = spansWithout("jdbc-connection", c -> {
            for (int i = 0; i < 5; i++) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + i)) {
                    rs.next();
                }
            }
        });
        assertEquals(5, spans.size(), PluginAgent.describe(spans));
        for (Span span : spans) {
            assertEquals("query", span.action());
            assertEquals("h2", span.subtype());
            assertEquals("disabled", span.context().db().instance().toString());
            assertEquals(null, span.context().db().user(), "the user is never asked of the database");
        }
        assertEquals(lookups + 1, AbstractJdbcScenarios.metadataLookups(), "one getMetaData().getURL() for the one connection");
    }

    @Test
    void disablingTheGroupDisablesEverything() throws Exception {
        List<Span> spans = spansWithout("jdbc", c -> {
            try (Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1").close();
            }
        });
        assertEquals(List.of(), spans);
    }

    /** {@code jdbc-statement} still disables the statement spans and remembering prepared SQL, and nothing else. */
    @Test
    void disablingStatementsKeepsConnectSpansAndRemembersNoSql() throws Exception {
        List<Span> spans = spansWithout("jdbc-statement", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1")) {
                assertEquals(null, StatementSql.statementSql.get(ps), "prepare is part of jdbc-statement");
                ps.executeQuery().close();
            }
        });
        assertEquals(1, spans.size(), PluginAgent.describe(spans));
        assertEquals("Driver.connect", spans.get(0).name().toString());
    }

    private interface ConnectionWork {
        void run(Connection connection) throws SQLException;
    }

    /** The spans of {@code work} on a new H2 connection in a transaction, with {@code disabled} disabled. */
    private List<Span> spansWithout(String disabled, ConnectionWork work) throws Exception {
        agent = AbstractJdbcScenarios.installJdbc(disabled);
        agent.startTracer(Collections.<String, Object>emptyMap());
        agent.inTransaction(() -> {
            try (Connection c = DriverManager.getConnection("jdbc:h2:mem:disabled", "sa", "")) {
                work.run(c);
            }
            return null;
        });
        return agent.spans();
    }
}
