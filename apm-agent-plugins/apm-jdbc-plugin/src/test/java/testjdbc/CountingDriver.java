package testjdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * A JDBC driver for tests that wraps the real one ({@code jdbc:counting:h2:...} opens {@code jdbc:h2:...}) and counts
 * every call that reaches the database side: connections opened, statements created, statements executed, metadata
 * requested. Its connections, statements and metadata are JDK proxies, which the agent does not instrument, so the
 * counts show exactly what the application and the agent asked of the database.
 */
public final class CountingDriver implements Driver {

    public static final String PREFIX = "jdbc:counting:";

    private static final Map<String, Long> COUNTS = new TreeMap<>();
    private static final CountingDriver INSTANCE = new CountingDriver();

    static {
        try {
            DriverManager.registerDriver(INSTANCE);
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Makes sure the driver is registered. */
    public static void register() {
    }

    public static synchronized Map<String, Long> counts() {
        return new TreeMap<>(COUNTS);
    }

    public static synchronized void reset() {
        COUNTS.clear();
    }

    static synchronized void count(String what) {
        COUNTS.merge(what, 1L, Long::sum);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        count("Driver.connect");
        String real = "jdbc:" + url.substring(PREFIX.length());
        Connection connection = DriverManager.getDriver(real).connect(real, info);
        return wrap(Connection.class, connection);
    }

    @SuppressWarnings("unchecked")
    static <T> T wrap(Class<T> type, T target) {
        return (T) Proxy.newProxyInstance(CountingDriver.class.getClassLoader(), new Class<?>[]{type}, new Counting(type, target));
    }

    private static final class Counting implements InvocationHandler {
        private final Class<?> type;
        private final Object target;

        Counting(Class<?> type, Object target) {
            this.type = type;
            this.target = target;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (type == DatabaseMetaData.class || name.startsWith("execute") || name.startsWith("prepare")
                    || name.equals("createStatement") || name.equals("getMetaData") || name.equals("addBatch")) {
                count(type.getSimpleName() + "." + name);
            }
            if (name.equals("unwrap") && args[0] == Connection.class && type == Connection.class) {
                return proxy;
            }
            if (name.equals("isWrapperFor") && type == Connection.class) {
                return false;
            }
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (result instanceof CallableStatement) {
                return wrap(CallableStatement.class, (CallableStatement) result);
            }
            if (result instanceof PreparedStatement) {
                return wrap(PreparedStatement.class, (PreparedStatement) result);
            }
            if (result instanceof Statement) {
                return wrap(Statement.class, (Statement) result);
            }
            if (result instanceof DatabaseMetaData) {
                return wrap(DatabaseMetaData.class, (DatabaseMetaData) result);
            }
            if (result instanceof Connection) {
                return proxy;
            }
            return result;
        }
    }

    @Override
    public boolean acceptsURL(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 1;
    }

    @Override
    public int getMinorVersion() {
        return 0;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }
}
