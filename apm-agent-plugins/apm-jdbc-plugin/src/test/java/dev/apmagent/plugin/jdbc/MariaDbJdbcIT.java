package dev.apmagent.plugin.jdbc;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * The JDBC scenarios on MariaDB with the MariaDB driver, directly and through HikariCP. Server from
 * {@code APM_TEST_MARIADB_URL} (default {@code jdbc:mariadb://127.0.0.1:3306/test}), {@code APM_TEST_MARIADB_USER}
 * (default root), {@code APM_TEST_MARIADB_PASSWORD} (default empty).
 */
class MariaDbJdbcIT extends AbstractJdbcScenarios {

    private final ServerBinding server = new ServerBinding("APM_TEST_MARIADB", "jdbc:mariadb://127.0.0.1:3306/test", "root", 3306);

    @Override
    protected String url() {
        return server.url;
    }

    @Override
    protected String user() {
        return server.user;
    }

    @Override
    protected String password() {
        return server.password;
    }

    @Override
    protected String vendor() {
        return "mariadb";
    }

    @Override
    protected String instance() {
        return server.database;
    }

    @Override
    protected String address() {
        return server.host;
    }

    @Override
    protected int port() {
        return server.port;
    }

    @Override
    protected void createTwiceFunction(Statement statement) throws SQLException {
        createMySqlTwiceFunction(statement);
    }

    static void createMySqlTwiceFunction(Statement statement) throws SQLException {
        statement.execute("DROP FUNCTION IF EXISTS apm_twice");
        statement.execute("CREATE FUNCTION apm_twice(x INT) RETURNS INT DETERMINISTIC RETURN x * 2");
    }
}
