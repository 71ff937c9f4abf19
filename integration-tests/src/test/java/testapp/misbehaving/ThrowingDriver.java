package testapp.misbehaving;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * A JDBC driver for {@code jdbc:throwing:} URLs that misbehaves everywhere: its connections and statements throw from
 * every method (statement execution with SQLExceptions, everything else with UnsupportedOperationExceptions, including
 * the metadata and close methods an agent might call). Only {@link #acceptsURL} and {@link #connect} answer, so that
 * DriverManager can hand out its connections.
 */
public final class ThrowingDriver implements Driver {

    static final String URL = "jdbc:throwing:db";

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        return acceptsURL(url) ? new ThrowingConnection() : null;
    }

    @Override
    public boolean acceptsURL(String url) {
        return url != null && url.startsWith("jdbc:throwing:");
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        throw new SQLException("throwing driver: Driver.getPropertyInfo");
    }

    @Override
    public int getMajorVersion() {
        throw new UnsupportedOperationException("throwing driver: Driver.getMajorVersion");
    }

    @Override
    public int getMinorVersion() {
        throw new UnsupportedOperationException("throwing driver: Driver.getMinorVersion");
    }

    @Override
    public boolean jdbcCompliant() {
        throw new UnsupportedOperationException("throwing driver: Driver.jdbcCompliant");
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("throwing driver: Driver.getParentLogger");
    }
}
