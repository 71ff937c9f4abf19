package dev.apmagent.benchmark.jdbc;

import dev.apmagent.benchmark.BenchmarkAgent;
import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.plugin.ContextField;
import dev.apmagent.plugin.jdbc.JdbcPlugin;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * What the agent adds to a {@code PreparedStatement.executeQuery} on H2 in memory. Each fork is one mode:
 * <ul>
 *   <li>{@code none}: no instrumentation in the JVM, the query alone;</li>
 *   <li>{@code agent}: the JDBC instrumentation installed and a tracer running; each operation is a transaction (start,
 *   activate, the query as a span, deactivate, end, hand-off to a reporter that releases on its own thread), as a
 *   request with one query is. H2 is loaded after the installation, as under {@code -javaagent}: its statements and
 *   connections have context fields, which the plugin's stores use;</li>
 *   <li>{@code agent_attach}: the same, but H2 was loaded and used before the installation, as when the agent is
 *   attached to a running application: its classes are retransformed, without fields, and the stores use their weak
 *   maps;</li>
 *   <li>{@code idle}: the instrumentation installed but no transaction active: the cost of advice that decides it has
 *   nothing to do ({@code -p mode=idle_attach}: with H2 loaded before).</li>
 * </ul>
 * {@code agent - none} is the cost per traced query including its transaction; {@code HotPathBenchmark} gives the
 * transaction's own share; {@code agent_attach - agent} is what the maps cost against the fields. {@link #executeQuery}
 * runs a statement prepared once (one store lookup per query for its SQL, one for its connection's endpoint);
 * {@link #prepareExecuteClose} prepares, runs and closes one per operation, as code that prepares per request does
 * (and so also remembers and forgets its SQL). Use {@code -prof gc} for B/op.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class JdbcQueryBenchmark {

    static final String SQL = "SELECT name FROM users WHERE id = ?";

    @Param({"none", "idle", "agent", "agent_attach"})
    public String mode;

    Connection connection;
    PreparedStatement query;
    ReleasingReporter reporter;
    Tracer tracer;
    private BenchmarkAgent agent;
    private boolean tracing;

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        boolean attach = mode.endsWith("_attach");
        // H2 in a class loader of its own, so that whether its classes were loaded before the instrumentation does not
        // depend on what ran before in this JVM (JdbcQueryBenchmarkTest runs every mode in one)
        Driver driver = freshH2();
        if (attach) {
            // H2's connection, statement and result classes loaded and run before the instrumentation: no fields
            try (Connection c = connect(driver, "jdbc:h2:mem:before;DB_CLOSE_DELAY=-1");
                 Statement s = c.createStatement(); PreparedStatement ps = c.prepareStatement("SELECT 1")) {
                s.execute("SELECT 1");
                ps.executeQuery().close();
            }
        }
        if (!mode.equals("none")) {
            agent = BenchmarkAgent.install(new JdbcPlugin(), releasing -> releasing);
            reporter = agent.reporter;
            tracer = agent.tracer;
            tracing = mode.startsWith("agent");
        }
        connection = connect(driver, "jdbc:h2:mem:bench" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(64))");
            s.execute("INSERT INTO users VALUES (1, 'ann'), (2, 'bob')");
        }
        query = connection.prepareStatement(SQL);
        query.setInt(1, 1);
        boolean fields = !mode.equals("none") && !attach;
        if (query instanceof ContextField != fields || connection instanceof ContextField != fields) {
            throw new IllegalStateException(mode + ": H2's classes " + (fields ? "lack" : "have") + " context fields: "
                    + query.getClass() + ", " + connection.getClass());
        }
    }

    private static Connection connect(Driver driver, String url) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "sa");
        props.setProperty("password", "");
        return driver.connect(url, props);
    }

    /** H2's driver, its classes loaded from where this JVM finds them (a jar, or the uber-jar) by a new loader. */
    static Driver freshH2() {
        URL h2 = org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation();
        try {
            return (Driver) new ChildFirstLoader(h2).loadClass("org.h2.Driver").getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Loads {@code org.h2.*} itself, everything else (the agent, its plugins) from the system class loader. */
    static final class ChildFirstLoader extends URLClassLoader {
        ChildFirstLoader(URL jar) {
            super(new URL[] {jar}, ClassLoader.getSystemClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : name.startsWith("org.h2.") ? findClass(name) : super.loadClass(name, resolve);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        query.close();
        connection.close();
        if (agent != null) {
            agent.stop();
            agent.uninstall();
        }
    }

    /** One query, read to the end; in {@code agent} mode inside its own transaction. */
    @Benchmark
    public int executeQuery() throws SQLException {
        Transaction t = tracing ? agent.startTransaction() : null;
        try (ResultSet rs = query.executeQuery()) {
            return rs.next() ? rs.getString(1).length() : 0;
        } finally {
            if (t != null) {
                agent.endTransaction(t);
            }
        }
    }

    /** Prepares the query, runs it, reads it to the end and closes it; in the {@code agent} modes in a transaction. */
    @Benchmark
    public int prepareExecuteClose() throws SQLException {
        Transaction t = tracing ? agent.startTransaction() : null;
        try (PreparedStatement statement = connection.prepareStatement(SQL)) {
            statement.setInt(1, 2);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() ? rs.getString(1).length() : 0;
            }
        } finally {
            if (t != null) {
                agent.endTransaction(t);
            }
        }
    }
}
