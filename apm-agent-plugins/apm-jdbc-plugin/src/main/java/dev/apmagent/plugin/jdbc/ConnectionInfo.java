package dev.apmagent.plugin.jdbc;

/**
 * What a JDBC URL says about the database: vendor (the span subtype), host, port, database (instance) and user.
 * Immutable; absent parts are null, an absent port is {@link #NO_PORT}. Built once per connection by
 * {@link JdbcUrlParser} and kept with the connection, so its allocation is off the per-statement path.
 */
public final class ConnectionInfo {

    /** Port value when the URL has none and the vendor has no default (embedded and in-memory databases). */
    public static final int NO_PORT = -1;
    /** Vendor of anything that is not recognised. */
    public static final String UNKNOWN_VENDOR = "unknown";
    /** The result for null, garbage or unrecognised URLs. */
    public static final ConnectionInfo UNKNOWN = new ConnectionInfo(UNKNOWN_VENDOR, null, NO_PORT, null, null);

    private final String vendor;
    private final String host;
    private final int port;
    private final String database;
    private final String user;

    public ConnectionInfo(String vendor, String host, int port, String database, String user) {
        this.vendor = vendor == null ? UNKNOWN_VENDOR : vendor;
        this.host = host;
        this.port = port;
        this.database = database;
        this.user = user;
    }

    /** postgresql, mysql, mariadb, h2, oracle, sqlserver, db2, sqlite, derby, hsqldb or unknown. */
    public String vendor() {
        return vendor;
    }

    /** Host name or address (IPv6 without brackets); null for embedded databases or when unknown. */
    public String host() {
        return host;
    }

    /** Port, the vendor default when the URL has none, or {@link #NO_PORT}. */
    public int port() {
        return port;
    }

    /** Database, service, SID or instance name; for file databases the path as written; null when unknown. */
    public String database() {
        return database;
    }

    /** The user when the URL contains one, else null. */
    public String user() {
        return user;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ConnectionInfo)) {
            return false;
        }
        ConnectionInfo that = (ConnectionInfo) o;
        return port == that.port && vendor.equals(that.vendor) && eq(host, that.host) && eq(database, that.database)
            && eq(user, that.user);
    }

    @Override
    public int hashCode() {
        int h = vendor.hashCode();
        h = 31 * h + (host == null ? 0 : host.hashCode());
        h = 31 * h + port;
        h = 31 * h + (database == null ? 0 : database.hashCode());
        return 31 * h + (user == null ? 0 : user.hashCode());
    }

    private static boolean eq(String a, String b) {
        return a == null ? b == null : a.equals(b);
    }

    @Override
    public String toString() {
        return vendor + "|" + host + "|" + port + "|" + database + "|" + user;
    }
}
