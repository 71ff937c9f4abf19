package dev.apmagent.plugin.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jdbc_connection_span_min_duration}: a pool's {@code getConnection} is a span only when it waited at least the
 * threshold, failed, or opened a physical connection; the span then starts when the call started. Thresholds are
 * either far above anything a loaded machine can make a borrow take (a minute) or far below the wait the test makes
 * (5 ms against a connection handed back 100 ms after the borrow started waiting for it), so no assertion depends on
 * the machine's speed.
 */
class ConnectionSpanThresholdTest {

    private static final long A_MINUTE = 60_000L;

    private PluginAgent agent;
    private final List<HikariDataSource> pools = new ArrayList<>();

    @BeforeEach
    void setUp() {
        agent = AbstractJdbcScenarios.installJdbc();
    }

    @AfterEach
    void tearDown() {
        pools.forEach(HikariDataSource::close);
        agent.uninstall();
        agent.stopTracer();
    }

    private void threshold(long millis) {
        agent.startTracer(Map.of(JdbcPlugin.CONNECTION_SPAN_MIN_DURATION.key(), millis));
    }

    private HikariDataSource pool(int size, long connectionTimeoutMillis) {
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl(H2JdbcTest.URL);
        ds.setUsername("sa");
        ds.setPassword("");
        ds.setMaximumPoolSize(size);
        ds.setMinimumIdle(size);
        ds.setConnectionTimeout(connectionTimeoutMillis);
        ds.setPoolName("threshold-" + pools.size());
        pools.add(ds);
        return ds;
    }

    private static void warm(HikariDataSource pool) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.isValid(1);
        }
    }

    private List<Span> connectSpans() {
        List<Span> out = new ArrayList<>();
        for (Span s : agent.spans()) {
            if ("connect".equals(s.action())) {
                out.add(s);
            }
        }
        return out;
    }

    @Test
    void quickBorrowsFromAPoolRecordNoSpan() throws Exception {
        threshold(A_MINUTE);
        HikariDataSource pool = pool(2, 30_000);
        warm(pool);
        agent.inTransaction(() -> {
            for (int i = 0; i < 5; i++) {
                try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                    s.executeQuery("SELECT 1").close();
                }
            }
            return null;
        });
        assertEquals(0, connectSpans().size(), PluginAgent.describe(agent.spans()));
        assertEquals(5, agent.spans().size(), "the queries are still spans: " + PluginAgent.describe(agent.spans()));
        assertEquals(5, agent.reporter().onlyTransaction().spanCountStarted(), "a borrow that records nothing counts nothing");
    }

    @Test
    void aBorrowThatWaitsForAConnectionIsASpanFromTheStartOfTheWait() throws Exception {
        threshold(5);
        HikariDataSource pool = pool(1, 30_000);
        warm(pool);
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            try (Connection c = pool.getConnection()) {
                held.countDown();
                // hand the connection back only once the traced borrow waits for it, and 100 ms later: the wait
                // is then at least 100 ms however late the test's thread got to its borrow
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (pool.getHikariPoolMXBean().getThreadsAwaitingConnection() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                Thread.sleep(100);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        holder.start();
        assertTrue(held.await(10, TimeUnit.SECONDS));
        long[] before = new long[1];
        agent.inTransaction(() -> {
            before[0] = System.nanoTime();
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1").close();
            }
            return null;
        });
        holder.join();
        List<Span> connects = connectSpans();
        assertEquals(1, connects.size(), PluginAgent.describe(agent.spans()));
        Span connect = connects.get(0);
        assertEquals("HikariDataSource.getConnection", connect.name().toString());
        assertEquals("h2", connect.subtype(), "the endpoint of the connection it got");
        assertEquals(Outcome.SUCCESS, connect.outcome());
        assertTrue(connect.isExit());
        assertTrue(connect.durationNanos() >= TimeUnit.MILLISECONDS.toNanos(100),
                "the span covers the wait: " + connect.durationNanos() + " ns");
        assertTrue(connect.startNanos() >= before[0], "started when the call started, not before");
        Span query = agent.spans().stream().filter(s -> "query".equals(s.action())).findFirst().orElseThrow();
        assertTrue(connect.startNanos() + connect.durationNanos() <= query.startNanos(), "ended before the query began");
        Transaction t = agent.reporter().onlyTransaction();
        PluginAgent.assertChildOf(t, connect);
        assertEquals(2, t.spanCountStarted());
    }

    @Test
    void aBorrowThatOpensAPhysicalConnectionIsASpan() throws Exception {
        threshold(A_MINUTE);
        HikariDataSource pool = pool(1, 30_000);
        // the pool is not started: its first getConnection opens the physical connection through Driver.connect
        agent.inTransaction(() -> {
            pool.getConnection().close();
            return null;
        });
        List<Span> connects = connectSpans();
        assertEquals(1, connects.size(), "one span for the pool's call, the driver's nested in it: "
                + PluginAgent.describe(agent.spans()));
        assertEquals("HikariDataSource.getConnection", connects.get(0).name().toString());
        assertEquals("h2", connects.get(0).subtype());
    }

    @Test
    void aBorrowThatFailsIsASpanWithItsError() throws Exception {
        threshold(A_MINUTE);
        HikariDataSource pool = pool(1, 250);
        warm(pool);
        Connection held = pool.getConnection();
        try {
            agent.inTransaction(() -> {
                assertThrows(SQLException.class, pool::getConnection, "the pool is exhausted");
                return null;
            });
        } finally {
            held.close();
        }
        List<Span> connects = connectSpans();
        assertEquals(1, connects.size(), PluginAgent.describe(agent.spans()));
        assertEquals(Outcome.FAILURE, connects.get(0).outcome());
        assertNotNull(agent.reporter().onlyError(), "the exception is captured");
    }

    @Test
    void zeroRecordsEveryBorrow() throws Exception {
        threshold(0);
        HikariDataSource pool = pool(2, 30_000);
        warm(pool);
        agent.inTransaction(() -> {
            for (int i = 0; i < 3; i++) {
                pool.getConnection().close();
            }
            return null;
        });
        assertEquals(3, connectSpans().size(), PluginAgent.describe(agent.spans()));
    }
}
