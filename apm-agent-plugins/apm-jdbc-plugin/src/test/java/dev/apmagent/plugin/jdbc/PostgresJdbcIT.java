package dev.apmagent.plugin.jdbc;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * The JDBC scenarios on PostgreSQL with the official driver, directly and through HikariCP. Server from
 * {@code APM_TEST_PG_URL} (default {@code jdbc:postgresql://127.0.0.1:5432/test}), {@code APM_TEST_PG_USER}
 * (default postgres), {@code APM_TEST_PG_PASSWORD}.
 */
class PostgresJdbcIT extends AbstractJdbcScenarios {

    private final ServerBinding server = new ServerBinding("APM_TEST_PG", "jdbc:postgresql://127.0.0.1:5432/test", "postgres", 5432);

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
        return "postgresql";
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
        statement.execute("CREATE OR REPLACE FUNCTION apm_twice(x integer) RETURNS integer AS 'SELECT x * 2' LANGUAGE SQL");
    }
}
