package testapp.startup;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Loads and calls a class the agent instruments (a JDBC driver that accepts no URL), and prints what it returned. Not
 * under {@code dev.apmagent}, whose classes the agent never instruments.
 */
public final class DriverApp {

    private DriverApp() {
    }

    public static void main(String[] args) throws Exception {
        Connection connection = new LocalDriver().connect("jdbc:local:nothing", new Properties());
        System.out.println("connection=" + connection);
    }

    /** Its name and its interface make the JDBC plugin instrument {@code connect}. */
    public static final class LocalDriver implements Driver {
        @Override
        public Connection connect(String url, Properties info) {
            return null;
        }

        @Override
        public boolean acceptsURL(String url) {
            return false;
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
        public Logger getParentLogger() {
            return Logger.getLogger("DriverApp");
        }
    }
}
