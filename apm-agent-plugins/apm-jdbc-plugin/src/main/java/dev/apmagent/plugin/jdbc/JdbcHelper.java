package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.ContextStore;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the JDBC advice does, behind an exception barrier: every public method is called from advice inlined
 * into the driver's (or pool's) classes, never throws and never changes an argument, a result or an exception.
 *
 * <h2>When a span is created</h2>
 * Only when a tracer runs and an event is active on the thread; otherwise every entry point returns after two reads
 * (the tracer, the thread's active event) and allocates nothing. Then:
 * <ol>
 *   <li><b>One span per application call.</b> A JDBC call made while another JDBC call on the same thread is running
 *   (a pool's proxy statement delegating to the driver's, a wrapper driver delegating to the real one, a pool's
 *   {@code getConnection} calling {@code Driver.connect}, a driver running statements of its own) is <i>nested</i>: a
 *   per-thread depth counter says so and it creates nothing. It only completes what the outer call could not know
 *   (the connection's address, the SQL) from its own, more physical, objects. {@code prepareStatement/prepareCall}
 *   count as JDBC calls in progress too (they record no span), so the metadata queries some drivers run to prepare a
 *   call are not recorded.</li>
 *   <li><b>Never a db span under an active exit span.</b> Database spans are exit spans; when the active event is an
 *   exit span (of this plugin on another path, or of any other plugin), no span is created.</li>
 * </ol>
 * The depth counter also covers the outer call that created no span (trace not sampled, {@code transaction_max_spans}
 * reached), so a dropped query is counted as dropped once, not once per layer.
 *
 * <h2>Where connection details come from, without round trips</h2>
 * {@code Driver.connect(url, properties)} is instrumented: the URL and the {@code user} property of every physical
 * connection are parsed once there and kept with the connection in a weak identity map. A statement's span looks up
 * {@code statement.getConnection()}; behind a pool that is the pool's proxy, which misses, and the driver's own
 * statement (nested, see above) fills the span from the physical connection. Only a connection that no instrumented
 * {@code connect} produced (opened before the agent attached, or by a data source that bypasses
 * {@code Driver.connect}) is resolved at the end of the call: unwrapped through {@link java.sql.Wrapper#unwrap} to the
 * physical connection, and if that is unknown too, its {@code getMetaData().getURL()} is read once and cached with
 * that physical connection. {@code getUserName()} is never called (MySQL Connector/J answers it with
 * {@code SELECT USER()}).
 *
 * <h2>Prepared statements</h2>
 * The SQL given to {@code Connection.prepareStatement/prepareCall} is kept in a bounded weak identity map keyed by the
 * returned statement, whether or not a transaction is active (statements are often prepared before the transaction
 * that executes them, and retransformation cannot add a field); {@code Statement.close()} removes it at once, so only
 * open statements are held. {@code addBatch(String)} keeps the first SQL of a plain statement's batch until
 * {@code executeBatch}.
 */
public final class JdbcHelper {

    /** Action of statement spans. */
    public static final String QUERY = "query";
    /** Action of batch spans. */
    public static final String EXEC = "exec";
    /** Action of connection spans. */
    public static final String CONNECT = "connect";

    static final String EMPTY_QUERY = "(empty query)";
    static final String UNKNOWN_QUERY = "(unknown query)";

    /** Most statements remembered at once; beyond, new ones are executed without their SQL (counted). */
    static final int MAX_STATEMENTS = 65_536;
    /** Most connections remembered at once. */
    static final int MAX_CONNECTIONS = 16_384;
    /** Wrapper layers unwrapped looking for a known physical connection. */
    static final int MAX_UNWRAP = 4;

    /** Returned by enter for a nested call: exit only decrements the depth. */
    static final Object NESTED = new Object();
    /** Returned by enter for an outermost call that records no span (not sampled, max spans): exit resets the depth. */
    static final Object UNRECORDED = new Object();
    /** Returned by Driver.connect's enter when nothing is traced: exit only records the connection. */
    static final Object CONNECT_COUNTED = new Object();

    static final ContextStore<String> statementSql = new ContextStore<String>(MAX_STATEMENTS, 14);
    static final ContextStore<DbEndpoint> connections = new ContextStore<DbEndpoint>(MAX_CONNECTIONS, 12);

    static final SqlNameCache sqlNames = new SqlNameCache();

    private static final ThreadLocal<CallState> CALLS = new ThreadLocal<CallState>() {
        @Override
        protected CallState initialValue() {
            return new CallState();
        }
    };

    private static final ClassValue<String> CONNECT_NAMES = new SpanNames(".connect");
    private static final ClassValue<String> GET_CONNECTION_NAMES = new SpanNames(".getConnection");

    private static final LongAdder failures = new LongAdder();
    private static final LongAdder metadataLookups = new LongAdder();
    private static final LongAdder staleCalls = new LongAdder();

    private JdbcHelper() {
    }

    // ------------------------------------------------------------------------------------------------ statements

    /** Enter of {@code execute/executeQuery/executeUpdate/executeLargeUpdate(String, ...)}. */
    public static Object enterStatement(Statement statement, String sql, String action) {
        Tracer tracer = GlobalTracer.get();
        if (tracer == null) {
            return null;
        }
        AbstractSpan active = tracer.active();
        if (active == null) {
            return null;
        }
        return enterTraced(tracer, active, statement, sql, false, action);
    }

    /** Enter of the no-argument {@code execute*} of a prepared or callable statement, and of {@code executeBatch}. */
    public static Object enterRemembered(Statement statement, String action) {
        Tracer tracer = GlobalTracer.get();
        if (tracer == null) {
            return null;
        }
        AbstractSpan active = tracer.active();
        if (active == null) {
            return null;
        }
        return enterTraced(tracer, active, statement, null, true, action);
    }

    private static Object enterTraced(Tracer tracer, AbstractSpan active, Statement statement, String sql,
                                      boolean rememberedSql, String action) {
        Span span = null;
        try {
            CallState call = CALLS.get();
            if (call.depth > 0 && !call.isOwnerContext(active)) {
                // not inside the outer call any more (its exit never ran), or application code inside it activated
                // a span of its own: this call starts afresh
                staleCalls.increment();
                call.reset();
            }
            if (call.depth > 0) {
                call.depth++;
                Span owner = call.span;
                if (owner != null) {
                    try {
                        completeFromNested(call, owner, statement, sql, rememberedSql);
                    } catch (Throwable t) {
                        failures.increment();
                    }
                }
                return NESTED;
            }
            if (active instanceof Span && ((Span) active).isExit()) {
                return null;
            }
            span = tracer.createSpan(active);
            if (span != null) {
                span.setExit(true);
                span.setType(DbEndpoint.DB, null, action);
                if (rememberedSql) {
                    sql = statementSql.get(statement);
                }
                call.sqlKnown = setNameAndStatement(call, span, sql);
                DbEndpoint endpoint = connections.get(connectionOf(statement));
                if (endpoint != null) {
                    endpoint.applyTo(span);
                }
                tracer.activate(span);
            }
            call.depth = 1;
            call.parent = active;
            call.span = span;
            call.tracer = tracer;
            call.statement = true;
            return span != null ? span : UNRECORDED;
        } catch (Throwable t) {
            failures.increment();
            if (span != null) {
                span.end();
            }
            return null;
        }
    }

    /** A nested call fills what the outer one did not know: the endpoint of its (physical) connection, the SQL. */
    private static void completeFromNested(CallState call, Span owner, Statement statement, String sql, boolean rememberedSql) {
        if (owner.subtype() == null) {
            DbEndpoint endpoint = connections.get(connectionOf(statement));
            if (endpoint != null) {
                endpoint.applyTo(owner);
            }
        }
        if (call.statement && !call.sqlKnown) {
            if (rememberedSql) {
                sql = statementSql.get(statement);
            }
            if (sql != null) {
                call.sqlKnown = setNameAndStatement(call, owner, sql);
            }
        }
    }

    /** Exit of the statement calls with an update count ({@code rowsAffected}) or without one (-1). */
    public static void exitStatement(Object state, Statement statement, Throwable thrown, long rowsAffected) {
        if (state == null) {
            return;
        }
        try {
            CallState call = CALLS.get();
            if (state == NESTED) {
                if (call.depth > 0) {
                    call.depth--;
                }
                return;
            }
            // the span comes from this call's own enter, even if the per-thread state was reset meanwhile
            Span span = state instanceof Span ? (Span) state : null;
            Tracer tracer = tracerOf(call, span);
            try {
                if (span != null && span.subtype() == null) {
                    // still at depth 1: whatever the driver runs for getMetaData() creates no span
                    resolve(connectionOf(statement)).applyTo(span);
                }
            } finally {
                call.reset();
            }
            if (span != null) {
                finish(tracer, span, thrown, rowsAffected);
            }
        } catch (Throwable t) {
            failures.increment();
        }
    }

    /** Exit of {@code executeBatch/executeLargeBatch}: rows affected is the sum of the known counts. */
    public static void exitBatch(Object state, Statement statement, Throwable thrown, Object counts) {
        long rows = -1;
        if (state instanceof Span && thrown == null) {
            rows = sumOfCounts(counts);
        }
        exitStatement(state, statement, thrown, rows);
        try {
            if (!(statement instanceof PreparedStatement)) {
                // a plain statement's batch is over: its next batch may run other SQL
                statementSql.remove(statement);
            }
        } catch (Throwable t) {
            failures.increment();
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

    /**
     * Enter of {@code Connection.prepareStatement/prepareCall(String, ...)}: while tracing, a JDBC call in progress
     * that records no span, so statements the driver runs to prepare (metadata queries) are nested and record none.
     */
    public static Object enterPrepare() {
        Tracer tracer = GlobalTracer.get();
        if (tracer == null) {
            return null;
        }
        AbstractSpan active = tracer.active();
        if (active == null) {
            return null;
        }
        try {
            CallState call = CALLS.get();
            if (call.depth > 0 && !call.isOwnerContext(active)) {
                // not inside the outer call any more (its exit never ran), or application code inside it activated
                // a span of its own: this call starts afresh
                staleCalls.increment();
                call.reset();
            }
            if (call.depth > 0) {
                call.depth++;
                return NESTED;
            }
            if (active instanceof Span && ((Span) active).isExit()) {
                return null;
            }
            call.depth = 1;
            call.parent = active;
            call.span = null;
            call.tracer = tracer;
            return UNRECORDED;
        } catch (Throwable t) {
            failures.increment();
            return null;
        }
    }

    /**
     * Exit of {@code Connection.prepareStatement/prepareCall(String, ...)}: remembers the SQL of the statement the
     * caller receives. A nested prepare (a pool's proxy connection preparing on the driver's) is skipped while tracing:
     * the application executes the outer statement, whose SQL is remembered when the outer prepare returns, and the
     * driver's statement is only ever executed nested inside it. That saves a map entry per prepare and its removal at
     * close. Without a transaction the depth is not tracked and every statement is remembered.
     */
    public static void exitPrepare(Object state, String sql, Object statement) {
        if (state != NESTED) {
            onPrepared(sql, statement);
        }
        if (state == null) {
            return;
        }
        try {
            CallState call = CALLS.get();
            if (state == NESTED) {
                if (call.depth > 0) {
                    call.depth--;
                }
            } else {
                call.reset();
            }
        } catch (Throwable t) {
            failures.increment();
        }
    }

    /** Remembers the SQL of a prepared or callable statement, traced or not. */
    static void onPrepared(String sql, Object statement) {
        if (statement == null || sql == null || GlobalTracer.get() == null) {
            return;
        }
        try {
            statementSql.put(statement, sql);
        } catch (Throwable t) {
            failures.increment();
        }
    }

    /** Enter of {@code Statement.addBatch(String)}: the first SQL of a batch names it. */
    public static void onAddBatch(Statement statement, String sql) {
        if (sql == null || GlobalTracer.get() == null) {
            return;
        }
        try {
            statementSql.putIfAbsent(statement, sql);
        } catch (Throwable t) {
            failures.increment();
        }
    }

    /** Enter of {@code Statement.close()}. */
    public static void onStatementClose(Object statement) {
        try {
            statementSql.remove(statement);
        } catch (Throwable t) {
            failures.increment();
        }
    }

    /** Enter of {@code Connection.close()}. */
    public static void onConnectionClose(Object connection) {
        try {
            connections.remove(connection);
        } catch (Throwable t) {
            failures.increment();
        }
    }

    private static boolean setNameAndStatement(CallState call, Span span, String sql) {
        if (sql == null) {
            span.setName(UNKNOWN_QUERY);
            return false;
        }
        String cached = sqlNames.get(sql);
        if (cached != null) {
            span.setName(cached);
        } else {
            StringBuilder name = span.nameBuilder();
            call.signature().appendTo(sql, name);
            if (name.length() == 0) {
                name.append(EMPTY_QUERY);
            }
            sqlNames.offer(sql, name);
        }
        span.context().db().setStatement(sql);
        return true;
    }

    private static Connection connectionOf(Statement statement) {
        try {
            return statement == null ? null : statement.getConnection();
        } catch (Throwable t) {
            return null;
        }
    }

    // ------------------------------------------------------------------------------------------------ connections

    /** Enter of {@code Driver.connect(url, properties)}. */
    public static Object enterDriverConnect(Driver driver, String url) {
        Tracer tracer = GlobalTracer.get();
        if (tracer == null) {
            return null;
        }
        try {
            CallState call = CALLS.get();
            call.connectDepth++;
            // each connect learns its endpoint afresh: a sibling connect inside the same outer call (a sharding driver
            // opening one connection per shard) must not inherit the previous sibling's endpoint
            call.connected = null;
        } catch (Throwable t) {
            failures.increment();
            return null;
        }
        AbstractSpan active = tracer.active();
        Object state = active == null ? null : enterConnect(tracer, active, driver, url, CONNECT_NAMES);
        return state != null ? state : CONNECT_COUNTED;
    }

    /** Exit of {@code Driver.connect}: remembers the physical connection's endpoint, always; ends the span if any. */
    public static void exitDriverConnect(Object state, String url, Properties properties, Connection connection, Throwable thrown) {
        if (state == null) {
            return;
        }
        DbEndpoint endpoint = null;
        CallState call = null;
        try {
            call = CALLS.get();
            if (connection != null) {
                // a wrapper driver's connection gets what the innermost (real) driver's URL said
                endpoint = call.connected != null ? call.connected : DbEndpoint.ofUrl(url, userOf(properties));
                connections.put(connection, endpoint);
                call.connected = endpoint;
            }
        } catch (Throwable t) {
            failures.increment();
        } finally {
            if (call != null && call.connectDepth > 0 && --call.connectDepth == 0) {
                call.connected = null;
            }
        }
        if (state == CONNECT_COUNTED || call == null) {
            return;
        }
        try {
            Span owner = call.span;
            if (owner != null && owner.subtype() == null && (endpoint != null || state != NESTED)) {
                // the innermost driver knows the physical connection best; the outer one falls back to its own URL
                (endpoint != null ? endpoint : DbEndpoint.ofUrl(url, userOf(properties))).applyTo(owner);
            }
        } catch (Throwable t) {
            failures.increment();
        }
        exitConnect(state, null, thrown);
    }

    /** Enter of {@code DataSource.getConnection(...)}. */
    public static Object enterGetConnection(Object dataSource) {
        Tracer tracer = GlobalTracer.get();
        if (tracer == null) {
            return null;
        }
        AbstractSpan active = tracer.active();
        if (active == null) {
            return null;
        }
        return enterConnect(tracer, active, dataSource, null, GET_CONNECTION_NAMES);
    }

    /** Exit of {@code DataSource.getConnection(...)}. */
    public static void exitGetConnection(Object state, Connection connection, Throwable thrown) {
        exitConnect(state, connection, thrown);
    }

    private static Object enterConnect(Tracer tracer, AbstractSpan active, Object source, String url, ClassValue<String> names) {
        Span span = null;
        try {
            CallState call = CALLS.get();
            if (call.depth > 0 && !call.isOwnerContext(active)) {
                // not inside the outer call any more (its exit never ran), or application code inside it activated
                // a span of its own: this call starts afresh
                staleCalls.increment();
                call.reset();
            }
            if (call.depth > 0) {
                call.depth++;
                return NESTED;
            }
            if (active instanceof Span && ((Span) active).isExit()) {
                return null;
            }
            if (source instanceof Driver && !accepts((Driver) source, url)) {
                // DriverManager offers the URL to every registered driver; only the one that takes it gets a span
                return null;
            }
            span = tracer.createSpan(active);
            if (span != null) {
                span.setExit(true);
                span.setType(DbEndpoint.DB, null, CONNECT);
                span.setName(names.get(source.getClass()));
                tracer.activate(span);
            }
            call.depth = 1;
            call.parent = active;
            call.span = span;
            call.tracer = tracer;
            return span != null ? span : UNRECORDED;
        } catch (Throwable t) {
            failures.increment();
            if (span != null) {
                span.end();
            }
            return null;
        }
    }

    private static void exitConnect(Object state, Connection connection, Throwable thrown) {
        if (state == null) {
            return;
        }
        try {
            CallState call = CALLS.get();
            if (state == NESTED) {
                if (call.depth > 0) {
                    call.depth--;
                }
                return;
            }
            Span span = state instanceof Span ? (Span) state : null;
            Tracer tracer = tracerOf(call, span);
            try {
                if (span != null && span.subtype() == null) {
                    (connection != null ? resolve(connection) : DbEndpoint.UNKNOWN).applyTo(span);
                }
            } finally {
                call.reset();
            }
            if (span != null) {
                finish(tracer, span, thrown, -1);
            }
        } catch (Throwable t) {
            failures.increment();
        }
    }

    private static boolean accepts(Driver driver, String url) {
        try {
            return url != null && driver.acceptsURL(url);
        } catch (Throwable t) {
            return false;
        }
    }

    private static String userOf(Properties properties) {
        try {
            return properties == null ? null : properties.getProperty("user");
        } catch (Throwable t) {
            return null;
        }
    }

    /**
     * The endpoint of {@code connection}: the cached one of it or of a connection it wraps; otherwise, once per
     * physical connection, what its {@code getMetaData().getURL()} says (drivers answer that from memory).
     */
    static DbEndpoint resolve(Connection connection) {
        Connection c = connection;
        for (int i = 0; i < MAX_UNWRAP && c != null; i++) {
            DbEndpoint known = connections.get(c);
            if (known != null) {
                return known;
            }
            Connection inner = unwrapOnce(c);
            if (inner == null || inner == c) {
                break;
            }
            c = inner;
        }
        if (c == null) {
            return DbEndpoint.UNKNOWN;
        }
        DbEndpoint endpoint = fromMetadata(c);
        connections.put(c, endpoint);
        return endpoint;
    }

    private static Connection unwrapOnce(Connection c) {
        try {
            return c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : null;
        } catch (Throwable t) {
            return null;
        }
    }

    private static DbEndpoint fromMetadata(Connection c) {
        metadataLookups.increment();
        try {
            DatabaseMetaData metaData = c.getMetaData();
            String url = metaData == null ? null : metaData.getURL();
            if (url != null) {
                return DbEndpoint.ofUrl(url, null);
            }
        } catch (Throwable t) {
            failures.increment();
        }
        return DbEndpoint.UNKNOWN;
    }

    // ------------------------------------------------------------------------------------------------ common

    /** The tracer that started {@code span}: the one recorded at enter, unless the thread's state was reset since. */
    private static Tracer tracerOf(CallState call, Span span) {
        Tracer tracer = call.span == span ? call.tracer : null;
        return tracer != null ? tracer : GlobalTracer.get();
    }

    private static void finish(Tracer tracer, Span span, Throwable thrown, long rowsAffected) {
        try {
            if (tracer == null) {
                return;
            }
            tracer.deactivate(span);
            if (rowsAffected >= 0) {
                span.context().db().setRowsAffected(rowsAffected);
            }
            if (thrown != null) {
                span.setOutcome(Outcome.FAILURE);
                tracer.captureException(thrown, span);
            } else {
                span.setOutcome(Outcome.SUCCESS);
            }
        } finally {
            span.end();
        }
    }

    /** Advice failures caught by the barrier since start. */
    public static long failures() {
        return failures.sum();
    }

    /** {@code getMetaData().getURL()} calls made for connections no instrumented {@code connect} produced. */
    public static long metadataLookups() {
        return metadataLookups.sum();
    }

    /**
     * Per-thread call states reset because the active event was not the outer call's: its exit never ran (an Error
     * inside the helper), or application code running inside a statement (a database's Java function) activated a
     * span of its own and ran JDBC calls, which then record their own spans.
     */
    public static long staleCalls() {
        return staleCalls.sum();
    }

    /** Statements not remembered because {@value #MAX_STATEMENTS} were open at once. */
    public static long statementsNotRemembered() {
        return statementSql.rejected();
    }

    /** Per-thread state of the JDBC call in progress; only its own thread touches it. */
    static final class CallState {
        int depth;
        Span span;
        /** The event active when the outermost call started (compared by identity only). */
        AbstractSpan parent;
        Tracer tracer;
        boolean sqlKnown;
        /** Driver.connect calls in progress on this thread, traced or not. */
        int connectDepth;
        /** What the innermost Driver.connect in progress on this thread learnt; for the wrapper drivers around it. */
        DbEndpoint connected;
        /** Whether the outermost call is a statement (else a connection) call. */
        boolean statement;
        private SqlSignature signature;

        SqlSignature signature() {
            SqlSignature s = signature;
            if (s == null) {
                s = new SqlSignature();
                signature = s;
            }
            return s;
        }

        /**
         * Whether {@code active} is what nested calls of the outermost call see active: its span, or the event that
         * was active when it started (it recorded no span, or its activation overflowed the stack).
         */
        boolean isOwnerContext(AbstractSpan active) {
            return active == span || active == parent;
        }

        void reset() {
            depth = 0;
            span = null;
            parent = null;
            tracer = null;
            sqlKnown = false;
            statement = false;
        }
    }

    /** "Simple class name + suffix" per class, computed once per class. */
    static final class SpanNames extends ClassValue<String> {
        private final String suffix;

        SpanNames(String suffix) {
            this.suffix = suffix;
        }

        @Override
        protected String computeValue(Class<?> type) {
            String name = type.getName();
            return name.substring(name.lastIndexOf('.') + 1) + suffix;
        }
    }
}
