package dev.apmagent.plugin.jdbc;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * The JDBC scenarios with MySQL Connector/J (here against the MariaDB server), directly and through HikariCP: the
 * driver whose {@code DatabaseMetaData.getUserName()} costs a {@code SELECT USER()} round trip. Server from
 * {@code APM_TEST_MYSQL_URL} (default {@code jdbc:mysql://127.0.0.1:3306/test?...}), {@code APM_TEST_MYSQL_USER}
 * (default root), {@code APM_TEST_MYSQL_PASSWORD} (default empty).
 */
class MySqlConnectorJdbcIT extends AbstractJdbcScenarios {

    private final ServerBinding server = new ServerBinding("APM_TEST_MYSQL",
            "jdbc:mysql://127.0.0.1:3306/test?useSSL=false&allowPublicKeyRetrieval=true", "root", 3306);

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
        return "mysql";
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
        MariaDbJdbcIT.createMySqlTwiceFunction(statement);
    }
}
