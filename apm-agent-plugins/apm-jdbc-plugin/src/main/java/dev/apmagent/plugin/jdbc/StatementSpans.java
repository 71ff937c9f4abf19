package dev.apmagent.plugin.jdbc;

import dev.apmagent.trace.Span;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;

/**
 * Spans of statements, action {@code query} for {@code execute*} and {@code exec} for batches, named after their SQL
 * ({@link SqlNames}): the SQL argument of {@code execute*(String, ...)}, else what {@link StatementSql} remembered of
 * the statement (prepared and callable statements, a plain statement's batch). The span gets the endpoint known for the
 * statement's connection ({@link Endpoints}); behind a pool that is the pool's proxy, which misses, and the driver's own
 * statement, nested, completes the endpoint (and an unknown SQL) from the physical connection. Rows affected come from
 * the update count, or the sum of a batch's known counts.
 */
public final class StatementSpans extends JdbcCallKind<Statement> {

    private static final StatementSpans QUERY_WITH_SQL = new StatementSpans("query", false);
    private static final StatementSpans QUERY = new StatementSpans("query", true);
    private static final StatementSpans BATCH = new StatementSpans("exec", true);

    private final String action;
    private final boolean remembered;

    private StatementSpans(String action, boolean remembered) {
        this.action = action;
        this.remembered = remembered;
    }

    /** Enter of {@code execute/executeQuery/executeUpdate/executeLargeUpdate(String, ...)}. */
    public static JdbcCall enter(Statement statement, String sql) {
        return JdbcCalls.enter(QUERY_WITH_SQL, statement, sql);
    }

    /** Enter of the no-argument {@code execute*} of a prepared or callable statement. */
    public static JdbcCall enterPrepared(Statement statement) {
        return JdbcCalls.enter(QUERY, statement, null);
    }

    /** Enter of {@code executeBatch/executeLargeBatch}. */
    public static JdbcCall enterBatch(Statement statement) {
        return JdbcCalls.enter(BATCH, statement, null);
    }

    /** Exit of the {@code execute*} calls, with an update count ({@code rowsAffected}) or without one (-1). */
    public static void exit(JdbcCall call, Statement statement, Throwable thrown, long rowsAffected) {
        JdbcCalls.exit(QUERY, call, statement, thrown, rowsAffected);
    }

    /** Exit of {@code executeBatch/executeLargeBatch}: rows affected is the sum of the known counts. */
    public static void exitBatch(JdbcCall call, Statement statement, Throwable thrown, Object counts) {
        long rows = -1;
        if (call != null && !call.isNested() && call.span() != null && thrown == null) {
            rows = sumOfCounts(counts);
        }
        JdbcCalls.exit(BATCH, call, statement, thrown, rows);
        if (!(statement instanceof PreparedStatement)) {
            // a plain statement's batch is over: its next batch may run other SQL
            StatementSql.forget(statement);
        }
    }

    static long sumOfCounts(Object counts) {
        long sum = 0;
        boolean known = false;
        if (counts instanceof int[]) {
            int[] c = (int[]) counts;
            for (int i = 0; i < c.length; i++) {
                if (c[i] >= 0) {
                    sum += c[i];
                    known = true;
                }
            }
        } else if (counts instanceof long[]) {
            long[] c = (long[]) counts;
            for (int i = 0; i < c.length; i++) {
                if (c[i] >= 0) {
                    sum += c[i];
                    known = true;
                }
            }
        }
        return known ? sum : -1;
    }

    @Override
    boolean recordsSpan(Statement statement, String sql) {
        return true;
    }

    /**
     * Types and names the span; its endpoint comes later, from the most physical connection that runs the statement:
     * behind a pool the driver's statement runs nested and {@link #completeOwner completes} it from the driver's
     * connection, otherwise the exit resolves the statement's own connection ({@link JdbcCalls#exit}). Looking the
     * statement's connection up here as well found a pool's proxy connection, which never has an endpoint, on every
     * statement behind a pool.
     */
    @Override
    void start(JdbcCall call, Span span, Statement statement, String sql) {
        span.setType(DbEndpoint.DB, null, action);
        call.sqlMissing = !SqlNames.apply(span, remembered ? StatementSql.of(statement) : sql);
    }

    @Override
    void completeOwner(JdbcCall call, Span owner, Statement statement, String sql) {
        if (owner.subtype() == null) {
            DbEndpoint endpoint = Endpoints.known(Endpoints.connectionOf(statement));
            if (endpoint != null) {
                endpoint.applyTo(owner);
            }
        }
        if (call.sqlMissing) {
            String known = remembered ? StatementSql.of(statement) : sql;
            if (known != null) {
                call.sqlMissing = !SqlNames.apply(owner, known);
            }
        }
    }

    @Override
    Connection connectionOf(Object statement) {
        return Endpoints.connectionOf((Statement) statement);
    }
}
