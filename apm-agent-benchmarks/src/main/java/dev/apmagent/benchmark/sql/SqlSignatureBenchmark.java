package dev.apmagent.benchmark.sql;

import java.util.concurrent.TimeUnit;

import dev.apmagent.plugin.jdbc.SqlSignature;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JDBC plugin's span-name parser ({@link SqlSignature}) per statement, on a short statement (what most prepared
 * statements look like) and a long one (a comment, a scalar subquery, string literals and quoted identifiers ahead of
 * the table the name comes from, joins after it). {@link #appendTo} is what the plugin runs on the application thread
 * and should allocate nothing; {@link #of} allocates the result string, for comparison.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SqlSignatureBenchmark {

    static final String SHORT = "SELECT * FROM ELASTIC_APM WHERE foo=?";

    static final String LONG = "/* report: monthly revenue per region, generated */\n"
            + "SELECT c.region, c.segment, SUM(o.total) AS revenue, COUNT(*) AS n, AVG(o.total) AS average, "
            + "(SELECT MAX(p.amount) FROM payments p WHERE p.customer_id = c.id AND p.state <> 'void') AS biggest, "
            + "'it''s complicated' AS note, \"quoted id\" "
            + "FROM customers c -- the table the name comes from\n"
            + "JOIN orders o ON o.customer_id = c.id AND o.created_at > ? AND o.status IN ('paid', 'shipped') "
            + "LEFT OUTER JOIN regions g ON g.code = c.region "
            + "WHERE c.active = TRUE AND c.name NOT LIKE '%test%' AND c.id NOT IN (SELECT id FROM blocked) "
            + "GROUP BY c.region, c.segment HAVING SUM(o.total) > 1000 ORDER BY revenue DESC LIMIT 100";

    @Param({"short", "long"})
    public String statement;

    String sql;
    final SqlSignature signature = new SqlSignature();
    final StringBuilder name = new StringBuilder(SqlSignature.MAX_NAME_LENGTH);

    @Setup(Level.Trial)
    public void setUp() {
        if ("short".equals(statement)) {
            sql = SHORT;
        } else if ("long".equals(statement)) {
            sql = LONG;
        } else {
            throw new IllegalArgumentException("statement must be short or long: " + statement);
        }
    }

    /** What the plugin does: append the name into the span's own builder. */
    @Benchmark
    public StringBuilder appendTo() {
        StringBuilder out = name;
        out.setLength(0);
        signature.appendTo(sql, out);
        return out;
    }

    /** The convenience API, which allocates the resulting String. */
    @Benchmark
    public String of() {
        return SqlSignature.of(sql);
    }
}
