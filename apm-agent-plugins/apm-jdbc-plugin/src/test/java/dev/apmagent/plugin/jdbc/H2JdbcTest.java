package dev.apmagent.plugin.jdbc;

import java.sql.SQLException;
import java.sql.Statement;

/** The JDBC scenarios on H2 in memory, through the H2 driver and through HikariCP. */
class H2JdbcTest extends AbstractJdbcScenarios {

    static final String URL = "jdbc:h2:mem:apmtest;DB_CLOSE_DELAY=-1";

    @Override
    protected String url() {
        return URL;
    }

    @Override
    protected String user() {
        return "sa";
    }

    @Override
    protected String password() {
        return "";
    }

    @Override
    protected String vendor() {
        return "h2";
    }

    @Override
    protected String instance() {
        return "apmtest";
    }

    @Override
    protected String address() {
        return null;
    }

    @Override
    protected int port() {
        return -1;
    }

    @Override
    protected void createTwiceFunction(Statement statement) throws SQLException {
        statement.execute("CREATE ALIAS IF NOT EXISTS apm_twice FOR \"" + H2Functions.class.getName() + ".twice\"");
    }

    /** Java functions H2 calls. */
    public static final class H2Functions {
        public static int twice(int x) {
            return 2 * x;
        }
    }
}
