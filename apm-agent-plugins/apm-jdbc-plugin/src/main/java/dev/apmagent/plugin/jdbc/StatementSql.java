package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.GlobalTracer;

import java.sql.Statement;

/**
 * The SQL of statements that are executed without it: the SQL given to {@code Connection.prepareStatement/prepareCall}
 * is kept with the returned statement, whether or not a transaction is active (statements are often prepared before
 * the transaction that executes them), in a {@link ContextStore} bound to {@code java.sql.Statement}: in the
 * statement's context field when its class was loaded after the agent ({@link StatementInstrumentation} declares the
 * key type), otherwise in the store's bounded weak identity map. {@code Statement.close()} removes it at once, so only
 * open statements are held. {@code addBatch(String)} keeps the first SQL of a plain statement's batch until
 * {@code executeBatch}. Statements not remembered because the map was full are counted
 * ({@code agent.plugin.statements_not_remembered}); their spans are named {@code (unknown query)}.
 */
public final class StatementSql {

    /** The key type of the store: statements get a context field for it. */
    static final String KEY_TYPE = "java.sql.Statement";
    /** Most statements remembered at once in the map; beyond, new ones are executed without their SQL (counted). */
    static final int MAX_STATEMENTS = 65_536;

    static final ContextStore<String> statementSql = ContextStore.forType(KEY_TYPE, MAX_STATEMENTS, 14);

    /**
     * Preparing is a JDBC call in progress that records no span: statements the driver runs to prepare (Connector/J
     * reads a function's parameters in {@code prepareCall}) are nested in it and record none either.
     */
    private static final JdbcCallKind<Object> PREPARE = new JdbcCallKind<Object>();

    private static final PluginHealth.Counter notRemembered = JdbcCalls.health.counter("statements_not_remembered");

    private StatementSql() {
    }

    /** Enter of {@code Connection.prepareStatement/prepareCall(String, ...)}. */
    public static JdbcCall enterPrepare() {
        return JdbcCalls.enter(PREPARE, null, null);
    }

    /**
     * Exit of {@code Connection.prepareStatement/prepareCall(String, ...)}: remembers the SQL of the statement the
     * caller receives. A nested prepare (a pool's proxy connection preparing on the driver's) is skipped while tracing:
     * the application executes the outer statement, whose SQL is remembered when the outer prepare returns, and the
     * driver's statement is only ever executed nested inside it. That saves a map entry per prepare and its removal at
     * close. Without a transaction nothing is nested and every statement is remembered.
     */
    public static void exitPrepare(JdbcCall call, String sql, Object statement) {
        if (call == null || !call.isNested()) {
            onPrepared(sql, statement);
        }
        JdbcCalls.exit(PREPARE, call, null, null, -1L);
    }

    /** Remembers the SQL of a prepared or callable statement, traced or not. */
    static void onPrepared(String sql, Object statement) {
        if (statement == null || sql == null || GlobalTracer.get() == null) {
            return;
        }
        try {
            if (!statementSql.put(statement, sql)) {
                notRemembered.increment();
            }
        } catch (Throwable t) {
            JdbcCalls.health.failure();
        }
    }

    /**
     * Enter of {@code Statement.addBatch(String)}: the first SQL of a batch names it. {@code putIfAbsent} is atomic in
     * the map only, which is enough: a statement's batch is built by one thread at a time.
     */
    public static void onAddBatch(Statement statement, String sql) {
        if (sql == null || GlobalTracer.get() == null) {
            return;
        }
        try {
            // the batch's first SQL names it: every later addBatch costs one lookup
            if (statementSql.get(statement) == null && !statementSql.putIfAbsent(statement, sql)) {
                notRemembered.increment();
            }
        } catch (Throwable t) {
            JdbcCalls.health.failure();
        }
    }

    /** Enter of {@code Statement.close()}: the statement's SQL is forgotten at once. */
    public static void onStatementClose(Object statement) {
        forget(statement);
    }

    static void forget(Object statement) {
        try {
            statementSql.remove(statement);
        } catch (Throwable t) {
            JdbcCalls.health.failure();
        }
    }

    /** The SQL remembered for {@code statement}, or null. */
    static String of(Statement statement) {
        return statementSql.get(statement);
    }
}
