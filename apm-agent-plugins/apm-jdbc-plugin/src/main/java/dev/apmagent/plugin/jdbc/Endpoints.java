package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.PluginHealth;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Statement;

/**
 * Where a span's connection details (vendor, address, database, user: a {@link DbEndpoint}) come from, without round
 * trips. {@code Driver.connect} parses the URL and the {@code user} property of every physical connection once
 * ({@link ConnectionSpans}) and keeps the result here, with the connection, in a {@link ContextStore} bound to
 * {@code java.sql.Connection} (the connection's context field when its class was loaded after the agent, a bounded weak
 * identity map otherwise); spans look their connection up. Only a connection that no instrumented {@code connect} produced (opened before the agent
 * attached, or by a data source that bypasses {@code Driver.connect}) is {@link #resolve resolved} at the end of a call:
 * unwrapped through {@link java.sql.Wrapper#unwrap} to the physical connection, and if that is unknown too, its
 * {@code getMetaData().getURL()} is read once and cached with that physical connection. {@code getUserName()} is never
 * called (MySQL Connector/J answers it with {@code SELECT USER()}). {@code Connection.close()} forgets the connection.
 */
public final class Endpoints {

    /** The key type of the store: connections get a context field for it ({@link ConnectionPrepareInstrumentation}). */
    static final String KEY_TYPE = "java.sql.Connection";
    /** Most connections remembered at once in the map. */
    static final int MAX_CONNECTIONS = 16_384;
    /** Wrapper layers unwrapped looking for a known physical connection. */
    static final int MAX_UNWRAP = 4;

    static final ContextStore<DbEndpoint> connections = ContextStore.forType(KEY_TYPE, MAX_CONNECTIONS, 12);

    /** {@code getMetaData().getURL()} calls made for connections no instrumented {@code connect} produced. */
    static final PluginHealth.Counter metadataLookups = JdbcCalls.health.counter("metadata_lookups");
    private static final PluginHealth.Counter notRemembered = JdbcCalls.health.counter("connections_not_remembered");

    private Endpoints() {
    }

    /** Enter of {@code Connection.close()}: the connection's endpoint is forgotten at once. */
    public static void onConnectionClose(Object connection) {
        try {
            connections.remove(connection);
        } catch (Throwable t) {
            JdbcCalls.health.failure();
        }
    }

    /** Keeps {@code endpoint} with {@code connection} (not null). */
    static void remember(Connection connection, DbEndpoint endpoint) {
        if (!connections.put(connection, endpoint)) {
            notRemembered.increment();
        }
    }

    /** The endpoint kept with {@code connection}, or null; asks the connection nothing. */
    static DbEndpoint known(Connection connection) {
        return connections.get(connection);
    }

    /**
     * The endpoint of {@code connection}: the one kept with it or with a connection it wraps; otherwise, once per
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
        remember(c, endpoint);
        return endpoint;
    }

    /** {@code statement.getConnection()}, or null. */
    static Connection connectionOf(Statement statement) {
        try {
            return statement == null ? null : statement.getConnection();
        } catch (Throwable t) {
            JdbcCalls.health.failure();
            return null;
        }
    }

    private static Connection unwrapOnce(Connection c) {
        try {
            return c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : null;
        } catch (Throwable t) {
            JdbcCalls.health.failure();
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
            JdbcCalls.health.failure();
        }
        return DbEndpoint.UNKNOWN;
    }
}
