package dev.apmagent.plugin.jdbc;

import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The nesting rule, driven through the helper as the advice drives it (no instrumentation installed). */
class JdbcHelperNestingTest {

    private final AgentFixture agent = new AgentFixture();
    private Connection connection;
    private Statement statement;

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
            Object outer = JdbcHelper.enterRemembered(statement, JdbcHelper.QUERY);
            assertTrue(outer instanceof Span, "the outer call records the span");
            assertEquals("(unknown query)", ((Span) outer).name().toString(), "the outer statement's SQL is unknown");
            Object inner = JdbcHelper.enterStatement(statement, "SELECT a FROM inner_table", JdbcHelper.QUERY);
            assertSame(JdbcHelper.NESTED, inner);
            JdbcHelper.exitStatement(inner, statement, null, -1);
            JdbcHelper.exitStatement(outer, statement, null, -1);
            return null;
        });
        Span span = agent.onlySpan();
        assertEquals("SELECT FROM inner_table", span.name().toString(), "the nested call knew the SQL");
        assertEquals("SELECT a FROM inner_table", span.context().db().statement().toString());
        assertEquals("h2", span.subtype());
    }

    @Test
    void anOuterCallWhoseExitNeverRanIsHealedByTheNextTransaction() throws Exception {
        long stale = JdbcHelper.staleCalls();
        agent.inTransaction(() -> {
            // as if an Error inside the helper had skipped the prepare's exit
            assertSame(JdbcHelper.UNRECORDED, JdbcHelper.enterPrepare());
            return null;
        });
        agent.inTransaction(() -> {
            Object state = JdbcHelper.enterStatement(statement, "SELECT 1", JdbcHelper.QUERY);
            assertNotNull(state);
            assertTrue(state instanceof Span, "recorded despite the stale state");
            JdbcHelper.exitStatement(state, statement, null, -1);
            return null;
        });
        assertEquals(stale + 1, JdbcHelper.staleCalls());
        assertEquals(1, agent.spans().size());
        Transaction second = agent.reporter.transactions().get(1);
        AgentFixture.assertChildOf(second, agent.spans().get(0));
    }

    /**
     * A pool's proxy preparing on the driver's connection: the statement the application receives (the outer one) is
     * remembered, the driver's statement prepared inside it is not while tracing (it is only ever executed nested, and
     * the outer statement's SQL names the span). Without a transaction both are remembered.
     */
    @Test
    void whileTracingOnlyTheOutermostPreparedStatementIsRemembered() throws Exception {
        try (java.sql.PreparedStatement proxy = connection.prepareStatement("SELECT 1");
             java.sql.PreparedStatement driver = connection.prepareStatement("SELECT 2")) {
            agent.inTransaction(() -> {
                Object outer = JdbcHelper.enterPrepare();
                Object inner = JdbcHelper.enterPrepare();
                assertSame(JdbcHelper.NESTED, inner);
                JdbcHelper.exitPrepare(inner, "SELECT x FROM t", driver);
                JdbcHelper.exitPrepare(outer, "SELECT x FROM t", proxy);
                return null;
            });
            assertEquals("SELECT x FROM t", JdbcHelper.statementSql.get(proxy));
            assertEquals(null, JdbcHelper.statementSql.get(driver), "the nested statement is not remembered");

            JdbcHelper.onStatementClose(proxy);
            Object untracedOuter = JdbcHelper.enterPrepare();
            Object untracedInner = JdbcHelper.enterPrepare();
            JdbcHelper.exitPrepare(untracedInner, "SELECT y FROM t", driver);
            JdbcHelper.exitPrepare(untracedOuter, "SELECT y FROM t", proxy);
            assertEquals("SELECT y FROM t", JdbcHelper.statementSql.get(proxy));
            assertEquals("SELECT y FROM t", JdbcHelper.statementSql.get(driver), "no transaction: every statement is remembered");
            JdbcHelper.onStatementClose(proxy);
            JdbcHelper.onStatementClose(driver);
        }
    }
}
