package dev.apmagent.plugin.jdbc;

import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Span;

import java.sql.Connection;
import java.sql.Driver;
import java.util.Properties;

/**
 * Spans of getting a connection, action {@code connect}: {@code Driver.connect(url, properties)} (named e.g.
 * {@code Driver.connect}, only for the driver that takes the URL: DriverManager offers it to every registered driver)
 * and {@code DataSource.getConnection(...)} (e.g. {@code HikariDataSource.getConnection}). A pool's
 * {@code getConnection} that opens a physical connection is one span; the {@code Driver.connect} inside it is nested and
 * gives it the endpoint of the connection it opened.
 *
 * <p>{@code Driver.connect} also keeps the endpoint of every connection it returns with that connection
 * ({@link Endpoints}), traced or not, which is how statement spans learn vendor, address and database without a round
 * trip. A wrapper driver's connection gets the endpoint of the innermost (real) driver's URL.
 */
public final class ConnectionSpans extends JdbcCallKind<Object> {

    private static final String CONNECT = "connect";

    private static final ConnectionSpans DRIVER_CONNECT = new ConnectionSpans(".connect", true);
    private static final ConnectionSpans GET_CONNECTION = new ConnectionSpans(".getConnection", false);

    /** Per thread, once it opened a connection through a driver. */
    private static final ThreadLocal<DriverConnects> driverConnects = new ThreadLocal<DriverConnects>();

    private final ClassValue<String> names;
    private final boolean asksDriver;

    private ConnectionSpans(String nameSuffix, boolean asksDriver) {
        this.names = new SpanNames(nameSuffix);
        this.asksDriver = asksDriver;
    }

    /** Enter of {@code Driver.connect(url, properties)}. */
    public static JdbcCall enterDriverConnect(Driver driver, String url) {
        if (GlobalTracer.get() == null) {
            return null;
        }
        try {
            DriverConnects connects = driverConnects();
            connects.depth++;
            // each connect learns its endpoint afresh: a sibling connect inside the same outer call (a sharding driver
            // opening one connection per shard) must not inherit the previous sibling's endpoint
            connects.connected = null;
        } catch (Throwable t) {
            JdbcCalls.health.failure();
            return null;
        }
        return JdbcCalls.enter(DRIVER_CONNECT, driver, url);
    }

    /** Exit of {@code Driver.connect}: keeps the connection's endpoint (traced or not), completes and ends the span. */
    public static void exitDriverConnect(JdbcCall call, String url, Properties properties, Connection connection,
                                         Throwable thrown) {
        DbEndpoint endpoint = rememberConnected(url, properties, connection);
        if (call != null && call.isNested() && connection != null) {
            call.connected = true; // a pool's getConnection that deferred its span records it: it opened a connection
        }
        Span owner = call == null ? null : call.span();
        try {
            if (owner != null && owner.subtype() == null && (endpoint != null || !call.isNested())) {
                // the innermost driver knows the physical connection best; the outer one falls back to its own URL
                (endpoint != null ? endpoint : DbEndpoint.ofUrl(url, userOf(properties))).applyTo(owner);
            }
        } catch (Throwable t) {
            JdbcCalls.health.failure();
        }
        JdbcCalls.exit(DRIVER_CONNECT, call, connection, thrown, -1L);
    }

    /** Enter of {@code DataSource.getConnection(...)}. */
    public static JdbcCall enterGetConnection(Object dataSource) {
        return JdbcCalls.enter(GET_CONNECTION, dataSource, null);
    }

    /**
     * Exit of {@code DataSource.getConnection(...)}. When the span was deferred (see {@link JdbcPlugin#CONNECTION_SPAN_MIN_DURATION}),
     * it is recorded now if the call is worth showing: it failed, opened a physical connection, or waited at least the
     * threshold (an exhausted pool, a validation round trip).
     */
    public static void exitGetConnection(JdbcCall call, Object dataSource, Connection connection, Throwable thrown) {
        if (call != null && call.awaitsSpan()) {
            JdbcCalls.recordLate(GET_CONNECTION, call, dataSource, thrown != null || call.connected
                    || call.elapsedNanos() >= JdbcPlugin.settings.get().connectionSpanMinDurationNanos);
        }
        JdbcCalls.exit(GET_CONNECTION, call, connection, thrown, -1L);
    }

    /**
     * Keeps the endpoint of the connection a {@code Driver.connect} returned, if its enter counted it (a tracer ran);
     * returns it, or null.
     */
    private static DbEndpoint rememberConnected(String url, Properties properties, Connection connection) {
        try {
            DriverConnects connects = driverConnects.get();
            if (connects == null || connects.depth == 0) { // its enter found no tracer: nothing to keep
                return null;
            }
            DbEndpoint endpoint = null;
            try {
                if (connection != null) {
                    // a wrapper driver's connection gets what the innermost (real) driver's URL said
                    endpoint = connects.connected != null ? connects.connected : DbEndpoint.ofUrl(url, userOf(properties));
                    Endpoints.remember(connection, endpoint);
                    connects.connected = endpoint;
                }
            } finally {
                if (--connects.depth == 0) {
                    connects.connected = null;
                }
            }
            return endpoint;
        } catch (Throwable t) {
            JdbcCalls.health.failure();
            return null;
        }
    }

    private static DriverConnects driverConnects() {
        DriverConnects connects = driverConnects.get();
        if (connects == null) {
            connects = new DriverConnects();
            driverConnects.set(connects);
        }
        return connects;
    }

    @Override
    boolean recordsSpan(Object source, String url) {
        return !asksDriver || accepts((Driver) source, url);
    }

    @Override
    boolean decidesAtExit() {
        return !asksDriver && JdbcPlugin.settings.get().connectionSpanMinDurationNanos > 0;
    }

    @Override
    void start(JdbcCall call, Span span, Object source, String url) {
        span.setType(DbEndpoint.DB, null, CONNECT);
        span.setName(names.get(source.getClass()));
    }

    @Override
    Connection connectionOf(Object connection) {
        return (Connection) connection;
    }

    private static boolean accepts(Driver driver, String url) {
        try {
            return url != null && driver.acceptsURL(url);
        } catch (Throwable t) {
            JdbcCalls.health.failure();
            return false;
        }
    }

    private static String userOf(Properties properties) {
        try {
            return properties == null ? null : properties.getProperty("user");
        } catch (Throwable t) {
            JdbcCalls.health.failure();
            return null;
        }
    }

    /** Driver.connect calls in progress on a thread while a tracer runs (traced or not), and what the innermost learnt. */
    private static final class DriverConnects {
        int depth;
        /** For the wrapper drivers around the innermost connect. */
        DbEndpoint connected;
    }

    /** "Simple class name + suffix" per class, computed once per class. */
    private static final class SpanNames extends ClassValue<String> {
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
