package dev.apmagent.benchmark.jdbc;

import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.config.Config;
import dev.apmagent.instrument.InstrumentationInstaller;
import dev.apmagent.plugin.jdbc.JdbcPlugin;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import net.bytebuddy.agent.ByteBuddyAgent;
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

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.concurrent.TimeUnit;

/**
 * What the agent adds to a {@code PreparedStatement.executeQuery} on H2 in memory. Each fork is one mode:
 * <ul>
 *   <li>{@code none}: no instrumentation in the JVM, the query alone;</li>
 *   <li>{@code agent}: the JDBC instrumentation installed and a tracer running; each operation is a transaction (start,
 *   activate, the query as a span, deactivate, end, hand-off to a reporter that releases on its own thread), as a
 *   request with one query is;</li>
 *   <li>{@code idle}: the instrumentation installed but no transaction active: the cost of advice that decides it has
 *   nothing to do.</li>
 * </ul>
 * {@code agent - none} is the cost per traced query including its transaction; {@code HotPathBenchmark} gives the
 * transaction's own share. Use {@code -prof gc} for B/op.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class JdbcQueryBenchmark {

    @Param({"none", "idle", "agent"})
    public String mode;

    Connection connection;
    PreparedStatement query;
    ReleasingReporter reporter;
    Tracer tracer;
    private InstrumentationInstaller.Installed installed;
    private boolean tracing;

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        if (!mode.equals("none")) {
            installed = InstrumentationInstaller.install(ByteBuddyAgent.install(), new JdbcPlugin().instrumentations(),
                    JdbcPlugin.class.getClassLoader(), true);
            reporter = new ReleasingReporter(8192).start();
            Config config = Config.ofParsed(Collections.<String, Object>singletonMap("max_queue_size", 4096));
            tracer = new Tracer(config, reporter);
            GlobalTracer.set(tracer, config);
            tracing = mode.equals("agent");
        }
        connection = DriverManager.getConnection("jdbc:h2:mem:bench" + System.nanoTime() + ";DB_CLOSE_DELAY=-1", "sa", "");
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(64))");
            s.execute("INSERT INTO users VALUES (1, 'ann'), (2, 'bob')");
        }
        query = connection.prepareStatement("SELECT name FROM users WHERE id = ?");
        query.setInt(1, 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        query.close();
        connection.close();
        if (reporter != null) {
            GlobalTracer.set(null, null);
            reporter.close();
            installed.uninstall(ByteBuddyAgent.install());
        }
    }

    /** One query, read to the end; in {@code agent} mode inside its own transaction. */
    @Benchmark
    public int executeQuery() throws SQLException {
        Transaction t = null;
        if (tracing) {
            t = tracer.startRootTransaction();
            tracer.activate(t);
        }
        try (ResultSet rs = query.executeQuery()) {
            return rs.next() ? rs.getString(1).length() : 0;
        } finally {
            if (t != null) {
                tracer.deactivate(t);
                t.end();
            }
        }
    }
}
