package dev.apmagent.plugin.jdbc;

import dev.apmagent.config.Config;
import dev.apmagent.plugin.ContextField;
import dev.apmagent.pool.ObjectPools;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.ListReporter;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bytes the helpers allocate per call, measured with {@code ThreadMXBean} on the paths the advice takes, with real
 * H2 statements: nothing when no tracer runs or no transaction is active, nothing per recorded span once the pools are
 * warm, and per prepared statement (freed again at close) one small map entry, or nothing where its class has a
 * context field. Each H2 test runs on both paths of the stores: H2 loaded, in a class loader of its own, while the JDBC
 * instrumentation was installed (context fields) or without it (the weak maps).
 */
class JdbcCallsAllocationTest {

    private static final int WARM_UP = 20_000;
    /**
     * Bytes a measured window may allocate in total without anything being allocated per call. The smallest object is
     * 16 bytes, so one object per call (or even per hundred calls) over {@link #ITERATIONS} calls is far above it. What
     * stays below it is one-off: with C2's escape analysis, a deoptimization in the window re-materializes the objects
     * the compiled code had eliminated (1,224 bytes on this machine's JDK 17, every run; 0.1 KB with
     * {@code -XX:-DoEscapeAnalysis}, none with C1 only).
     */
    private static final long ONE_OFF_BYTES = 8 * 1024;
    private static final int ITERATIONS = 50_000;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @AfterEach
    void clearTracer() {
        GlobalTracer.set(null);
    }

    /** Releases every event at once, on this thread, so the thread_local pool recycles it. */
    private static ListReporter releasingReporter() {
        ListReporter reporter = new ListReporter();
        reporter.setDropping(true);
        return reporter;
    }

    private static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    private static void statementCalls(Statement plain, PreparedStatement prepared, int n) {
        for (int i = 0; i < n; i++) {
            JdbcCall s1 = StatementSpans.enter(plain, "SELECT id, name FROM apm_alloc WHERE id = 1");
            StatementSpans.exit(s1, plain, null, -1L);
            JdbcCall s2 = StatementSpans.enterPrepared(prepared);
            StatementSpans.exit(s2, prepared, null, 1L);
        }
    }

    /** Per path, H2's driver in a class loader of its own; its statement and connection classes loaded and used. */
    private static final Map<Boolean, Driver> drivers = new HashMap<>();

    private static synchronized Driver driver(boolean withFields) throws Exception {
        Driver driver = drivers.get(withFields);
        if (driver == null) {
            PluginAgent agent = withFields ? AbstractJdbcScenarios.installJdbc() : null;
            try {
                driver = (Driver) H2VersionMatrixTest.h2Loader(org.h2.Driver.class.getProtectionDomain().getCodeSource()
                        .getLocation()).loadClass("org.h2.Driver").getDeclaredConstructor().newInstance();
                try (Connection c = connection(driver); PreparedStatement p = c.prepareStatement("SELECT 1")) {
                    p.execute(); // loads the classes of connections and of both kinds of statements
                }
            } finally {
                if (agent != null) {
                    agent.uninstall(); // the classes keep their fields
                }
            }
            drivers.put(withFields, driver);
        }
        return driver;
    }

    private static Connection connection(boolean withFields) throws Exception {
        Connection c = connection(driver(withFields));
        assertEquals(withFields, c instanceof ContextField, c.getClass() + " has a context field");
        return c;
    }

    private static Connection connection(Driver driver) throws Exception {
        Properties props = new Properties();
        props.setProperty("user", "sa");
        Connection c = driver.connect("jdbc:h2:mem:alloc;DB_CLOSE_DELAY=-1", props);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS apm_alloc (id INT PRIMARY KEY, name VARCHAR(20))");
        }
        return c;
    }

    @ParameterizedTest(name = "context fields: {0}")
    @ValueSource(booleans = {false, true})
    void nothingWhenNotTracing(boolean withFields) throws Exception {
        Tracer tracer = new Tracer(Config.ofParsed(Map.of()), releasingReporter(), ObjectPools.factory(ObjectPools.THREAD_LOCAL));
        try (Connection c = connection(withFields); Statement plain = c.createStatement();
             PreparedStatement prepared = c.prepareStatement("SELECT name FROM apm_alloc WHERE id = ?")) {
            assertEquals(withFields, prepared instanceof ContextField);
            GlobalTracer.set(null);
            statementCalls(plain, prepared, WARM_UP);
            long before = allocated();
            statementCalls(plain, prepared, ITERATIONS);
            long noTracer = allocated() - before;

            GlobalTracer.set(tracer);
            statementCalls(plain, prepared, WARM_UP);
            before = allocated();
            statementCalls(plain, prepared, ITERATIONS);
            long noTransaction = allocated() - before;

            assertEquals(0, noTracer / ITERATIONS, "bytes per call without a tracer (" + noTracer + " in total)");
            assertEquals(0, noTransaction / ITERATIONS, "bytes per call without a transaction (" + noTransaction + " in total)");
            assertTrue(noTracer < ONE_OFF_BYTES, noTracer + " bytes for " + ITERATIONS + " calls without a tracer");
            assertTrue(noTransaction < ONE_OFF_BYTES, noTransaction + " bytes for " + ITERATIONS + " calls");
        }
    }

    @ParameterizedTest(name = "context fields: {0}")
    @ValueSource(booleans = {false, true})
    void nothingPerSpanWhenTracing(boolean withFields) throws Exception {
        Tracer tracer = new Tracer(Config.ofParsed(Map.of("transaction_max_spans", Integer.MAX_VALUE)), releasingReporter(),
                ObjectPools.factory(ObjectPools.THREAD_LOCAL));
        GlobalTracer.set(tracer);
        try (Connection c = connection(withFields); Statement plain = c.createStatement()) {
            PreparedStatement prepared = c.prepareStatement("SELECT name FROM apm_alloc WHERE id = ?");
            assertEquals(withFields, prepared instanceof ContextField);
            Endpoints.remember(c, DbEndpoint.ofUrl("jdbc:h2:mem:alloc", "sa"));
            StatementSql.onPrepared("SELECT name FROM apm_alloc WHERE id = ?", prepared);
            Transaction t = tracer.startRootTransaction();
            tracer.activate(t);
            try {
                statementCalls(plain, prepared, WARM_UP);
                long spansBefore = t.spanCountStarted();
                long before = allocated();
                statementCalls(plain, prepared, ITERATIONS);
                long bytes = allocated() - before;
                assertEquals(2L * ITERATIONS, t.spanCountStarted() - spansBefore, "every call recorded a span");
                System.out.printf("JDBC helpers, tracing, context fields %s: %.3f bytes per span%n", withFields,
                        bytes / (2.0 * ITERATIONS));
                assertTrue(bytes < ONE_OFF_BYTES, bytes + " bytes for " + 2 * ITERATIONS + " spans");
            } finally {
                tracer.deactivate(t);
                t.end();
                StatementSql.onStatementClose(prepared);
                Endpoints.onConnectionClose(c);
                prepared.close();
            }
        }
    }

    /** A statement whose class has the context field: remembering and forgetting its SQL writes the field only. */
    @Test
    void aPreparedStatementWithAContextFieldCostsNothing() throws Exception {
        GlobalTracer.set(new Tracer(Config.ofParsed(Map.of()), releasingReporter(), ObjectPools.factory(ObjectPools.THREAD_LOCAL)));
        try (Connection c = connection(true);
             PreparedStatement prepared = c.prepareStatement("SELECT name FROM apm_alloc WHERE id = ?")) {
            String sql = "SELECT 1";
            for (int i = 0; i < WARM_UP; i++) {
                StatementSql.onPrepared(sql, prepared);
                StatementSql.onStatementClose(prepared);
            }
            int sizeBefore = StatementSql.statementSql.size();
            long before = allocated();
            for (int i = 0; i < ITERATIONS; i++) {
                StatementSql.onPrepared(sql, prepared);
                StatementSql.onStatementClose(prepared);
            }
            long bytes = allocated() - before;
            System.out.printf("JDBC helpers: %.3f bytes per prepared statement with a context field remembered and forgotten%n",
                    bytes / (double) ITERATIONS);
            assertTrue(bytes < ONE_OFF_BYTES, bytes + " bytes for " + ITERATIONS + " statements");
            assertEquals(sizeBefore, StatementSql.statementSql.size(), "the map was not used");
        }
    }

    /** Statements the map holds (plain objects here: no class of theirs has a context field). */
    @Test
    void onePreparedStatementCostsOneSmallEntryUntilClosed() throws Exception {
        GlobalTracer.set(new Tracer(Config.ofParsed(Map.of()), releasingReporter(), ObjectPools.factory(ObjectPools.THREAD_LOCAL)));
        Object[] statements = new Object[ITERATIONS];
        for (int i = 0; i < statements.length; i++) {
            statements[i] = new Object();
        }
        String sql = "SELECT 1";
        for (int i = 0; i < WARM_UP; i++) {
            StatementSql.onPrepared(sql, statements[i % 1000]);
            StatementSql.onStatementClose(statements[i % 1000]);
        }
        int sizeBefore = StatementSql.statementSql.size();
        long before = allocated();
        for (int i = 0; i < statements.length; i++) {
            StatementSql.onPrepared(sql, statements[i]);
            StatementSql.onStatementClose(statements[i]);
        }
        long bytes = allocated() - before;
        double perStatement = bytes / (double) statements.length;
        System.out.printf("JDBC helpers: %.1f bytes per prepared statement remembered and forgotten%n", perStatement);
        assertTrue(perStatement <= 48, perStatement + " bytes per prepared statement");
        assertEquals(sizeBefore, StatementSql.statementSql.size(), "closed statements are forgotten");
    }
}
