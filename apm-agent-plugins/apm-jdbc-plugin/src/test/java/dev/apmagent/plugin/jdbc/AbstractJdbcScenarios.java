package dev.apmagent.plugin.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The JDBC plugin's behaviour, written once and bound to a database and driver by a thin subclass ({@code H2JdbcTest},
 * {@code PostgresJdbcIT}, ...). The real instrumentation is installed into this JVM; every scenario runs through the
 * driver directly ({@link DriverManager}) or through HikariCP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcScenarios {

    static final String TABLE = "apm_test";

    PluginAgent agent;
    private List<String> baseline;
    private final List<HikariDataSource> pools = new ArrayList<>();

    // ------------------------------------------------------------------ binding

    /** The driver URL. */
    protected abstract String url();

    protected abstract String user();

    protected abstract String password();

    /** Expected span subtype. */
    protected abstract String vendor();

    /** Expected {@code context.db.instance}. */
    protected abstract String instance();

    /** Expected destination address; null for embedded databases. */
    protected abstract String address();

    /** Expected destination port; -1 for embedded databases. */
    protected abstract int port();

    /** Creates the SQL function {@code apm_twice(int) -> int} (twice its argument), replacing any existing one. */
    protected abstract void createTwiceFunction(Statement statement) throws SQLException;

    /** Whether the driver supports {@code executeLargeUpdate}. */
    protected boolean supportsLargeUpdate() {
        return true;
    }

    // ------------------------------------------------------------------ lifecycle

    @BeforeAll
    void installAgent() throws Exception {
        requireServer();
        createSchema();
        baseline = workload();
        agent = installJdbc();
    }

    @AfterAll
    void uninstallAgent() {
        if (agent != null) {
            agent.uninstall();
        }
    }

    /** The JDBC plugin installed into this JVM, minus what {@code disabled} names (instrumentations or groups). */
    static PluginAgent installJdbc(String... disabled) {
        PluginAgent agent = PluginAgent.install(new JdbcPlugin(), disabled);
        assertEquals(0, agent.errors(), "transformation errors");
        return agent;
    }

    /** {@code getMetaData().getURL()} lookups so far, read where the health metrics read them. */
    static long metadataLookups() {
        return PluginHealth.of("jdbc").counter("metadata_lookups").sum();
    }

    @BeforeEach
    void startTracer() throws Exception {
        agent.startTracer(Collections.<String, Object>emptyMap());
        createSchema();
    }

    @AfterEach
    void stopTracer() {
        for (HikariDataSource pool : pools) {
            pool.close();
        }
        pools.clear();
        agent.stopTracer();
    }

    /** Skips (or fails on CI) when the database cannot be reached. */
    private void requireServer() {
        try (Connection c = connect()) {
            c.isValid(5);
        } catch (SQLException e) {
            String message = getClass().getSimpleName() + ": cannot connect to " + url() + " as " + user() + ": " + e;
            if ("true".equals(System.getenv("CI"))) {
                fail(message + " (CI=true: real databases are required)");
            }
            message += "; skipped (the class javadoc names the environment variables that point to a server)";
            // a class-level abort is not listed by Surefire/Failsafe reports: say it where it is seen
            System.err.println(message);
            Assumptions.abort(message);
        }
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), user(), password());
    }

    /** A lazily started HikariCP pool over the driver URL, closed after the test. */
    HikariDataSource pool() {
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl(url());
        ds.setUsername(user());
        ds.setPassword(password());
        ds.setMaximumPoolSize(4);
        ds.setPoolName("apm-" + pools.size());
        pools.add(ds);
        return ds;
    }

    private void createSchema() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + TABLE);
            s.execute("CREATE TABLE " + TABLE + " (id INT PRIMARY KEY, name VARCHAR(64))");
            s.executeUpdate("INSERT INTO " + TABLE + " (id, name) VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            createTwiceFunction(s);
        }
    }

    // ------------------------------------------------------------------ assertions

    private void assertEndpoint(Span span) {
        assertEquals("db", span.type());
        assertEquals(vendor(), span.subtype());
        assertTrue(span.isExit(), "db spans are exit spans");
        assertEquals(instance(), str(span.context().db().instance()), "db.instance");
        assertEquals(user(), str(span.context().db().user()), "db.user");
        assertEquals(address(), str(span.context().destination().address()), "destination.address");
        assertEquals(port(), span.context().destination().port(), "destination.port");
        String resource = instance() == null ? vendor() : vendor() + "/" + instance();
        assertEquals(resource, str(span.context().destination().serviceResource()), "destination.service.resource");
        assertEquals(vendor(), str(span.context().serviceTarget().type()), "service.target.type");
        assertEquals(instance(), str(span.context().serviceTarget().name()), "service.target.name");
    }

    private void assertQuerySpan(Span span, String name, String action, String statement) {
        assertEquals(name, span.name().toString(), "name");
        assertEquals(action, span.action(), "action");
        assertEquals("sql", str(span.context().db().type()), "db.type");
        assertEquals(statement, span.context().db().statement().toString(), "db.statement");
        assertEquals(Outcome.SUCCESS, span.outcome());
        assertEndpoint(span);
    }

    static String str(CharSequence cs) {
        return cs == null ? null : cs.toString();
    }

    // ------------------------------------------------------------------ scenarios

    @Test
    void plainStatementQuery() throws Exception {
        String sql = "SELECT id, name FROM " + TABLE + " WHERE id > 1 ORDER BY id";
        List<String> rows = agent.inTransaction(() -> {
            try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                return read(rs);
            }
        });
        assertEquals(List.of("2:two", "3:three"), rows);
        Span span = onlyQuerySpan();
        assertQuerySpan(span, "SELECT FROM " + TABLE, "query", sql);
        assertEquals(-1, span.context().db().rowsAffected());
        PluginAgent.assertChildOf(agent.reporter().onlyTransaction(), span);
    }

    @Test
    void plainStatementExecute() throws Exception {
        String sql = "SELECT name FROM " + TABLE + " WHERE id = 3";
        boolean hasResult = agent.inTransaction(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                return s.execute(sql);
            }
        });
        assertTrue(hasResult);
        assertQuerySpan(onlyQuerySpan(), "SELECT FROM " + TABLE, "query", sql);
    }

    @Test
    void preparedStatementQuery() throws Exception {
        String sql = "SELECT name FROM " + TABLE + " WHERE id = ?";
        List<String> names = agent.inTransaction(() -> {
            try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
                List<String> out = new ArrayList<>();
                for (int id = 1; id <= 2; id++) {
                    ps.setInt(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        out.add(rs.getString(1));
                    }
                }
                return out;
            }
        });
        assertEquals(List.of("one", "two"), names);
        List<Span> spans = querySpans();
        assertEquals(2, spans.size());
        for (Span span : spans) {
            assertQuerySpan(span, "SELECT FROM " + TABLE, "query", sql);
        }
    }

    @Test
    void statementPreparedOutsideTheTransactionKeepsItsSql() throws Exception {
        String sql = "SELECT COUNT(*) FROM " + TABLE;
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            long count = agent.inTransaction(() -> {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            });
            assertEquals(3, count);
        }
        assertQuerySpan(onlyQuerySpan(), "SELECT FROM " + TABLE, "query", sql);
    }

    @Test
    void updatesReportRowsAffected() throws Exception {
        String insert = "INSERT INTO " + TABLE + " (id, name) VALUES (?, ?)";
        String update = "UPDATE " + TABLE + " SET name = 'many' WHERE id >= 2";
        String delete = "DELETE FROM " + TABLE + " WHERE id = ?";
        agent.inTransaction(() -> {
            try (Connection c = connect()) {
                try (PreparedStatement ps = c.prepareStatement(insert)) {
                    ps.setInt(1, 10);
                    ps.setString(2, "ten");
                    assertEquals(1, ps.executeUpdate());
                }
                try (Statement s = c.createStatement()) {
                    assertEquals(3, s.executeUpdate(update));
                }
                try (PreparedStatement ps = c.prepareStatement(delete)) {
                    ps.setInt(1, 1);
                    assertEquals(false, ps.execute());
                }
            }
            return null;
        });
        List<Span> spans = querySpans();
        assertEquals(3, spans.size(), PluginAgent.describe(spans));
        assertQuerySpan(spans.get(0), "INSERT INTO " + TABLE, "query", insert);
        assertEquals(1, spans.get(0).context().db().rowsAffected());
        assertQuerySpan(spans.get(1), "UPDATE " + TABLE, "query", update);
        assertEquals(3, spans.get(1).context().db().rowsAffected());
        assertQuerySpan(spans.get(2), "DELETE FROM " + TABLE, "query", delete);
        assertEquals(-1, spans.get(2).context().db().rowsAffected(), "execute() gives no update count to the agent");
    }

    @Test
    void largeUpdatesReportRowsAffected() throws Exception {
        Assumptions.assumeTrue(supportsLargeUpdate(), "driver has no executeLargeUpdate");
        String update = "UPDATE " + TABLE + " SET name = 'x'";
        long rows = agent.inTransaction(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                return s.executeLargeUpdate(update);
            }
        });
        assertEquals(3, rows);
        Span span = onlyQuerySpan();
        assertQuerySpan(span, "UPDATE " + TABLE, "query", update);
        assertEquals(3, span.context().db().rowsAffected());
    }

    @Test
    void preparedBatch() throws Exception {
        String insert = "INSERT INTO " + TABLE + " (id, name) VALUES (?, ?)";
        int[] counts = agent.inTransaction(() -> {
            try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(insert)) {
                for (int id = 20; id < 23; id++) {
                    ps.setInt(1, id);
                    ps.setString(2, "n" + id);
                    ps.addBatch();
                }
                return ps.executeBatch();
            }
        });
        assertEquals(3, counts.length);
        Span span = onlyQuerySpan();
        assertQuerySpan(span, "INSERT INTO " + TABLE, "exec", insert);
        long expected = 0;
        for (int n : counts) {
            expected += Math.max(n, 0);
        }
        assertEquals(expected > 0 ? expected : -1, span.context().db().rowsAffected());
    }

    @Test
    void plainStatementBatchesAreNamedByTheirFirstSql() throws Exception {
        String first = "INSERT INTO " + TABLE + " (id, name) VALUES (30, 'a')";
        String second = "UPDATE " + TABLE + " SET name = 'b' WHERE id = 30";
        String third = "DELETE FROM " + TABLE + " WHERE id = 30";
        agent.inTransaction(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.addBatch(first);
                s.addBatch(second);
                s.executeBatch();
                s.addBatch(third);
                s.executeBatch();
            }
            return null;
        });
        List<Span> spans = querySpans();
        assertEquals(2, spans.size(), PluginAgent.describe(spans));
        assertQuerySpan(spans.get(0), "INSERT INTO " + TABLE, "exec", first);
        assertQuerySpan(spans.get(1), "DELETE FROM " + TABLE, "exec", third);
    }

    @Test
    void callableStatement() throws Exception {
        String call = "{? = call apm_twice(?)}";
        int result = agent.inTransaction(() -> {
            try (Connection c = connect(); CallableStatement cs = c.prepareCall(call)) {
                cs.registerOutParameter(1, Types.INTEGER);
                cs.setInt(2, 21);
                cs.execute();
                return cs.getInt(1);
            }
        });
        assertEquals(42, result);
        assertQuerySpan(onlyQuerySpan(), "CALL apm_twice", "query", call);
    }

    @Test
    void aFailedUpdateReportsNoRowsAffected() throws Exception {
        String sql = "UPDATE apm_missing_table SET a = 1";
        agent.inTransaction(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                return assertThrows(SQLException.class, () -> s.executeUpdate(sql));
            }
        });
        Span span = onlyQuerySpan();
        assertEquals(Outcome.FAILURE, span.outcome());
        assertEquals(-1, span.context().db().rowsAffected(), "the update threw: no count, not 0");
    }

    @Test
    void driverExceptionIsCapturedAndRethrownUnchanged() throws Exception {
        String sql = "SELECT * FROM apm_missing_table";
        SQLException[] withoutAgent = new SQLException[1];
        GlobalTracer_setNullDuring(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                withoutAgent[0] = assertThrows(SQLException.class, () -> s.executeQuery(sql));
            }
            return null;
        });
        SQLException thrown = agent.inTransaction(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                return assertThrows(SQLException.class, () -> s.executeQuery(sql));
            }
        });
        assertEquals(withoutAgent[0].getClass(), thrown.getClass());
        assertEquals(withoutAgent[0].getSQLState(), thrown.getSQLState());
        assertEquals(withoutAgent[0].getErrorCode(), thrown.getErrorCode());
        Span span = onlyQuerySpan();
        assertEquals(Outcome.FAILURE, span.outcome());
        assertEquals("SELECT FROM apm_missing_table", span.name().toString());
        ErrorEvent error = agent.reporter().onlyError();
        assertSame(thrown, error.exception(), "the error is the very exception the application got");
        assertEquals(span.traceContext().id(), error.parentId(), "the error is linked to the span");
        assertEquals(agent.reporter().onlyTransaction().traceContext().id(), error.transactionId());
    }

    /** Runs {@code work} with no tracer at all (as before the agent started). */
    private void GlobalTracer_setNullDuring(Callable<Void> work) throws Exception {
        dev.apmagent.trace.GlobalTracer.set(null);
        try {
            work.call();
        } finally {
            dev.apmagent.trace.GlobalTracer.set(agent.tracer());
        }
    }

    @Test
    void noSpanWithoutTransaction() throws Exception {
        List<String> rows = workload();
        assertEquals(baseline, rows);
        assertEquals(List.of(), agent.spans());
        assertEquals(0, agent.tracer().activeDepth());
    }

    @Test
    void resultsAreIdenticalWithTheAgent() throws Exception {
        List<String> traced = agent.inTransaction(this::workload);
        assertEquals(baseline, traced);
        assertTrue(querySpans().size() >= 5, PluginAgent.describe(agent.spans()));
    }

    @Test
    void dbSpanIsAChildOfTheActiveSpan() throws Exception {
        agent.inTransaction(() -> {
            Span parent = agent.tracer().createSpan();
            parent.setName("service method");
            parent.setType("app", "internal", null);
            agent.tracer().activate(parent);
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1 FROM " + TABLE).close();
            } finally {
                agent.tracer().deactivate(parent);
                parent.end();
            }
            return null;
        });
        Span parent = spanNamed("service method");
        Span db = onlyQuerySpan();
        PluginAgent.assertChildOf(parent, db);
        assertEquals(agent.reporter().onlyTransaction().traceContext().id(), db.transactionId());
    }

    @Test
    void noDbSpanUnderAnExitSpan() throws Exception {
        agent.inTransaction(() -> {
            Span exit = agent.tracer().createSpan();
            exit.setName("GET /remote");
            exit.setType("external", "http", null);
            exit.setExit(true);
            agent.tracer().activate(exit);
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1 FROM " + TABLE).close();
            } finally {
                agent.tracer().deactivate(exit);
                exit.end();
            }
            return null;
        });
        assertEquals(1, agent.spans().size(), PluginAgent.describe(agent.spans()));
        assertEquals("GET /remote", agent.spans().get(0).name().toString());
    }

    @Test
    void driverManagerConnectIsOneConnectSpan() throws Exception {
        agent.inTransaction(() -> {
            connect().close();
            return null;
        });
        Span span = agent.onlySpan();
        assertEquals("connect", span.action());
        assertEquals("Driver.connect", span.name().toString());
        assertEquals(Outcome.SUCCESS, span.outcome());
        assertEndpoint(span);
    }

    @Test
    void failedConnectIsAFailedSpanWithTheDriversException() throws Exception {
        SQLException thrown = agent.inTransaction(() ->
                assertThrows(SQLException.class, () -> DriverManager.getConnection(url(), "apm_no_such_user", "wrong")));
        Span span = agent.onlySpan();
        assertEquals("connect", span.action());
        assertEquals(Outcome.FAILURE, span.outcome());
        assertEquals(vendor(), span.subtype());
        ErrorEvent error = agent.reporter().onlyError();
        assertSame(thrown, error.exception());
        assertEquals(span.traceContext().id(), error.parentId());
    }

    @Test
    void unsampledTransactionsRecordNoSpans() throws Exception {
        agent.stopTracer();
        agent.startTracer(Map.of("transaction_sample_rate", 0.0));
        List<String> rows = agent.inTransaction(this::workload);
        assertEquals(baseline, rows);
        assertEquals(List.of(), agent.spans());
        Transaction t = agent.reporter().onlyTransaction();
        assertEquals(0, t.spanCountStarted());
        assertEquals(0, t.spanCountDropped(), "unsampled spans are not dropped spans");
    }

    @Test
    void poolGetConnectionIsOneSpanEvenWhenItOpensThePhysicalConnection() throws Exception {
        HikariDataSource pool = pool();
        long lookups = metadataLookups();
        agent.inTransaction(() -> {
            // the first getConnection starts the pool, which opens a physical connection through Driver.connect
            try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT name FROM " + TABLE + " WHERE id = ?")) {
                ps.setInt(1, 2);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("two", rs.getString(1));
                }
            }
            return null;
        });
        List<Span> spans = agent.spans();
        assertEquals(2, spans.size(), PluginAgent.describe(spans));
        Span connect = spans.get(0);
        assertEquals("HikariDataSource.getConnection", connect.name().toString());
        assertEquals("connect", connect.action());
        assertEndpoint(connect);
        Span query = spans.get(1);
        assertQuerySpan(query, "SELECT FROM " + TABLE, "query", "SELECT name FROM " + TABLE + " WHERE id = ?");
        assertEquals(lookups, metadataLookups(), "no getMetaData() for connections opened by Driver.connect");
    }

    @Test
    void pooledStatementsAreOneSpanEach() throws Exception {
        agent.stopTracer();
        agent.startTracer(Map.of(JdbcPlugin.CONNECTION_SPAN_MIN_DURATION.key(), 0L)); // every borrow is a span
        HikariDataSource pool = pool();
        try (Connection warm = pool.getConnection()) {
            warm.isValid(1);
        }
        long lookups = metadataLookups();
        agent.inTransaction(() -> {
            for (int i = 0; i < 5; i++) {
                try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + TABLE)) {
                    assertTrue(rs.next());
                }
            }
            return null;
        });
        assertEquals(5, querySpans().size(), PluginAgent.describe(agent.spans()));
        assertEquals(5, connectSpans().size(), PluginAgent.describe(agent.spans()));
        for (Span span : querySpans()) {
            assertQuerySpan(span, "SELECT FROM " + TABLE, "query", "SELECT COUNT(*) FROM " + TABLE);
        }
        assertEquals(lookups, metadataLookups(), "no getMetaData() behind the pool's proxies");
    }

    /** What the agent remembers of a statement or a borrowed connection is gone once the application closed it. */
    @Test
    void closedPooledStatementsAndConnectionsLeaveNoEntries() throws Exception {
        HikariDataSource pool = pool();
        try (Connection warm = pool.getConnection()) {
            warm.isValid(1);
        }
        int statements = StatementSql.statementSql.size();
        int connections = Endpoints.connections.size();
        agent.inTransaction(() -> {
            for (int i = 0; i < 50; i++) {
                try (Connection c = pool.getConnection();
                     PreparedStatement ps = c.prepareStatement("SELECT id FROM " + TABLE + " WHERE id = ?")) {
                    ps.setInt(1, i);
                    ps.executeQuery().close();
                }
            }
            return null;
        });
        assertEquals(statements, StatementSql.statementSql.size(), "statement entries");
        // the borrowed proxy connections are gone; the physical ones the pool opened meanwhile stay known
        int physical = pool.getHikariPoolMXBean().getTotalConnections();
        assertTrue(Endpoints.connections.size() <= connections + physical,
                "connection entries: " + Endpoints.connections.size() + ", before " + connections + ", pool " + physical);
    }

    @Test
    void droppedQueriesAreCountedOnceBehindAPool() throws Exception {
        agent.stopTracer();
        agent.startTracer(Map.of("transaction_max_spans", 1, JdbcPlugin.CONNECTION_SPAN_MIN_DURATION.key(), 0L));
        HikariDataSource pool = pool();
        try (Connection warm = pool.getConnection()) {
            warm.isValid(1);
        }
        agent.inTransaction(() -> {
            try (Connection c = pool.getConnection()) {
                for (int i = 0; i < 3; i++) {
                    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + TABLE)) {
                        ps.executeQuery().close();
                    }
                }
            }
            return null;
        });
        Transaction t = agent.reporter().onlyTransaction();
        assertEquals(1, t.spanCountStarted(), "the connect span");
        assertEquals(3, t.spanCountDropped(), "each query dropped once, not once per layer (pool proxy and driver)");
    }

    @Test
    void concurrentStatementsOnSeveralThreads() throws Exception {
        HikariDataSource pool = pool();
        int threads = 4;
        int queries = 25;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<String>>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                futures.add(executor.submit(() -> {
                    start.await();
                    return agent.inTransaction(() -> {
                        List<String> out = new ArrayList<>();
                        try (Connection c = pool.getConnection();
                             PreparedStatement ps = c.prepareStatement("SELECT name FROM " + TABLE + " WHERE id = ?")) {
                            for (int q = 0; q < queries; q++) {
                                ps.setInt(1, 1 + q % 3);
                                try (ResultSet rs = ps.executeQuery()) {
                                    rs.next();
                                    out.add(rs.getString(1));
                                }
                            }
                        }
                        return out;
                    });
                }));
            }
            start.countDown();
            for (Future<List<String>> f : futures) {
                List<String> names = f.get(60, TimeUnit.SECONDS);
                assertEquals(queries, names.size());
                for (int q = 0; q < queries; q++) {
                    assertEquals(List.of("one", "two", "three").get(q % 3), names.get(q));
                }
            }
        } finally {
            executor.shutdownNow();
        }
        List<Transaction> transactions = agent.reporter().transactions();
        assertEquals(threads, transactions.size());
        List<Span> spans = querySpans();
        assertEquals(threads * queries, spans.size());
        for (Transaction t : transactions) {
            int children = 0;
            for (Span s : spans) {
                if (s.transactionId() == t.traceContext().id()) {
                    children++;
                    PluginAgent.assertChildOf(t, s);
                    assertQuerySpan(s, "SELECT FROM " + TABLE, "query", "SELECT name FROM " + TABLE + " WHERE id = ?");
                }
            }
            assertEquals(queries, children, "each transaction has its own queries");
        }
    }

    @Test
    void closedStatementsAreForgotten() throws Exception {
        try (Connection c = connect()) {
            int before = StatementSql.statementSql.size();
            for (int i = 0; i < 100; i++) {
                try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + TABLE + " WHERE id = " + i)) {
                    assertEquals("SELECT id FROM " + TABLE + " WHERE id = " + i, StatementSql.statementSql.get(ps));
                }
            }
            assertEquals(before, StatementSql.statementSql.size());
        }
    }

    /** The statements every comparison runs: plain, prepared, update, batch, callable. */
    List<String> workload() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, name FROM " + TABLE + " ORDER BY id")) {
                out.addAll(read(rs));
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT name FROM " + TABLE + " WHERE id = ?")) {
                ps.setInt(1, 3);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    out.add(rs.getString(1));
                }
            }
            try (Statement s = c.createStatement()) {
                out.add("updated " + s.executeUpdate("UPDATE " + TABLE + " SET name = name WHERE id < 3"));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + TABLE + " (id, name) VALUES (?, ?)")) {
                ps.setInt(1, 100);
                ps.setString(2, "hundred");
                ps.addBatch();
                ps.setInt(1, 101);
                ps.setString(2, "hundred and one");
                ps.addBatch();
                out.add("batch " + ps.executeBatch().length);
            }
            try (CallableStatement cs = c.prepareCall("{? = call apm_twice(?)}")) {
                cs.registerOutParameter(1, Types.INTEGER);
                cs.setInt(2, 5);
                cs.execute();
                out.add("twice " + cs.getInt(1));
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, name FROM " + TABLE + " ORDER BY id")) {
                out.addAll(read(rs));
            }
            c.rollback();
        }
        return out;
    }

    static List<String> read(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getInt(1) + ":" + rs.getString(2));
        }
        return out;
    }

    List<Span> querySpans() {
        List<Span> out = new ArrayList<>();
        for (Span s : agent.spans()) {
            if ("db".equals(s.type()) && !"connect".equals(s.action())) {
                out.add(s);
            }
        }
        return out;
    }

    List<Span> connectSpans() {
        List<Span> out = new ArrayList<>();
        for (Span s : agent.spans()) {
            if ("connect".equals(s.action())) {
                out.add(s);
            }
        }
        return out;
    }

    Span onlyQuerySpan() {
        List<Span> spans = querySpans();
        assertEquals(1, spans.size(), () -> PluginAgent.describe(agent.spans()));
        return spans.get(0);
    }

    Span spanNamed(String name) {
        for (Span s : agent.spans()) {
            if (name.equals(s.name().toString())) {
                return s;
            }
        }
        fail("no span named " + name + " in " + PluginAgent.describe(agent.spans()));
        return null;
    }

}
