package dev.apmagent.plugin.jdbc;

import dev.apmagent.trace.Span;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code disable_instrumentations=jdbc-connection}: no connection spans; statement spans still name the database,
 * now learnt from one {@code getMetaData().getURL()} per physical connection (never one per statement).
 */
class DisabledConnectionInstrumentationTest {

    private final AgentFixture agent = new AgentFixture();

    @AfterEach
    void tearDown() {
        agent.uninstall();
        agent.stopTracer();
    }

    @Test
    void noConnectSpansAndOneMetadataLookupPerConnection() throws Exception {
        agent.install(ConnectInstrumentation.NAME);
        agent.startTracer(Collections.<String, Object>emptyMap());
        long lookups = JdbcHelper.metadataLookups();
        agent.inTransaction(() -> {
            try (Connection c = DriverManager.getConnection("jdbc:h2:mem:disabled", "sa", "")) {
                for (int i = 0; i < 5; i++) {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + i)) {
                        rs.next();
                    }
                }
            }
            return null;
        });
        List<Span> spans = agent.spans();
        assertEquals(5, spans.size(), AgentFixture.describe(spans));
        for (Span span : spans) {
            assertEquals("query", span.action());
            assertEquals("h2", span.subtype());
            assertEquals("disabled", span.context().db().instance().toString());
            assertEquals(null, span.context().db().user(), "the user is never asked of the database");
        }
        assertEquals(lookups + 1, JdbcHelper.metadataLookups(), "one getMetaData().getURL() for the one connection");
    }

    @Test
    void disablingTheGroupDisablesEverything() throws Exception {
        agent.install(JdbcInstrumentation.GROUP);
        agent.startTracer(Collections.<String, Object>emptyMap());
        agent.inTransaction(() -> {
            try (Connection c = DriverManager.getConnection("jdbc:h2:mem:disabled", "sa", "");
                 Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1").close();
            }
            return null;
        });
        assertEquals(List.of(), agent.spans());
    }
}
