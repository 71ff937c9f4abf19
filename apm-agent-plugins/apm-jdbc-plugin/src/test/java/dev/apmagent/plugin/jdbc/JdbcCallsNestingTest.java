package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The nesting rule, driven through the helpers as the advice drives them (no instrumentation installed). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcCallsNestingTest {

    private PluginAgent agent;
    private Connection connection;
    private Statement statement;

    @BeforeAll
    void noInstrumentation() {
        agent = PluginAgent.install(new JdbcPlugin(), JdbcPlugin.NAME);
    }

    @AfterAll
    void uninstall() {
        agent.uninstall();
    }

    @BeforeEach
    void setUp() throws Exception {
        agent.startTracer(Collections.<String, Object>emptyMap());
        connection = DriverManager.getConnection("jdbc:h2:mem:nesting", "sa", "");
        statement = connection.createStatement();
    }

    @AfterEach
    void tearDown() throws Exception {
        statement.close();
        connection.close();
        agent.stopTracer();
    }

    @Test
    void aCallInsideAnotherIsNestedAndCompletesTheOuterSpan() throws Exception {
        agent.inTransaction(() -> {
            JdbcCall outer = StatementSpans.enterPrepared(statement);
            assertFalse(outer.isNested());
            assertNotNull(outer.span(), "the outer call records the span");
            assertEquals("(unknown query)", outer.span().name().toString(), "the outer statement's SQL is unknown");
            JdbcCall inner = StatementSpans.enter(statement, "SELECT a FROM inner_table");
            assertSame(outer, inner);
            assertTrue(inner.isNested());
            StatementSpans.exit(inner, statement, null, -1);
            StatementSpans.exit(outer, statement, null, -1);
            return null;
        });
        Span span = agent.onlySpan();
        assertEquals("SELECT FROM inner_table", span.name().toString(), "the nested call knew the SQL");
        assertEquals("SELECT a FROM inner_table", span.context().db().statement().toString());
        assertEquals("h2", span.subtype());
    }

    @Test
    void anOuterCallWhoseExitNeverRanIsHealedByTheNextTransaction() throws Exception {
        PluginHealth.Counter staleCalls = PluginHealth.of("jdbc").counter("stale_calls");
        long stale = staleCalls.sum();
        JdbcCall[] lost = new JdbcCall[1];
        agent.inTransaction(() -> {
            // as if an Error inside the helper had skipped the prepare's exit
            lost[0] = StatementSql.enterPrepare();
            assertFalse(lost[0].isNested(), "the outermost call");
            assertNull(lost[0].span(), "a prepare records no span");
            return null;
        });
        agent.inTransaction(() -> {
            JdbcCall call = StatementSpans.enter(statement, "SELECT 1");
            assertNotNull(call);
            assertNotSame(lost[0], call, "the thread started afresh");
            assertNotNull(call.span(), "recorded despite the stale state");
            StatementSpans.exit(call, statement, null, -1);
            return null;
        });
        assertEquals(stale + 1, staleCalls.sum());
        assertEquals(1, agent.spans().size());
        Transaction second = agent.reporter().transactions().get(1);
        PluginAgent.assertChildOf(second, agent.spans().get(0));
    }

    /**
     * A pool's proxy preparing on the driver's connection: the statement the application receives (the outer one) is
     * remembered, the driver's statement prepared inside it is not while tracing (it is only ever executed nested, and
     * the outer statement's SQL names the span). Without a transaction both are remembered.
     */
    @Test
    void whileTracingOnlyTheOutermostPreparedStatementIsRemembered() throws Exception {
        try (PreparedStatement proxy = connection.prepareStatement("SELECT 1");
             PreparedStatement driver = connection.prepareStatement("SELECT 2")) {
            agent.inTransaction(() -> {
                JdbcCall outer = StatementSql.enterPrepare();
                JdbcCall inner = StatementSql.enterPrepare();
                assertTrue(inner.isNested());
                StatementSql.exitPrepare(inner, "SELECT x FROM t", driver);
                StatementSql.exitPrepare(outer, "SELECT x FROM t", proxy);
                return null;
            });
            assertEquals("SELECT x FROM t", StatementSql.statementSql.get(proxy));
            assertEquals(null, StatementSql.statementSql.get(driver), "the nested statement is not remembered");

            StatementSql.onStatementClose(proxy);
            JdbcCall untracedOuter = StatementSql.enterPrepare();
            JdbcCall untracedInner = StatementSql.enterPrepare();
            StatementSql.exitPrepare(untracedInner, "SELECT y FROM t", driver);
            StatementSql.exitPrepare(untracedOuter, "SELECT y FROM t", proxy);
            assertEquals("SELECT y FROM t", StatementSql.statementSql.get(proxy));
            assertEquals("SELECT y FROM t", StatementSql.statementSql.get(driver), "no transaction: every statement is remembered");
            StatementSql.onStatementClose(proxy);
            StatementSql.onStatementClose(driver);
        }
    }
}
