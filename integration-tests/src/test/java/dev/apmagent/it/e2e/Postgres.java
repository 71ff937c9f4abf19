package dev.apmagent.it.e2e;

import dev.apmagent.it.TestPaths;
import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The PostgreSQL the tests use: 127.0.0.1:5432, database {@code test}, user {@code postgres}, trust authentication;
 * {@code APM_TEST_PG_URL} and {@code APM_TEST_PG_USER} override URL and user. Unreachable: the test is skipped with a
 * message, except with {@code CI=true}, where it fails.
 */
final class Postgres {

    private Postgres() {
    }

    static String url() {
        String url = System.getenv("APM_TEST_PG_URL");
        return url == null || url.isEmpty() ? "jdbc:postgresql://127.0.0.1:5432/test" : url;
    }

    static String user() {
        String user = System.getenv("APM_TEST_PG_USER");
        return user == null || user.isEmpty() ? "postgres" : user;
    }

    static void assumeReachable() {
        try (Connection c = DriverManager.getConnection(url(), user(), "")) {
            c.isValid(5);
        } catch (SQLException e) {
            String message = "PostgreSQL not reachable at " + url() + " as " + user() + ": " + e.getMessage();
            if (TestPaths.isCi()) {
                throw new IllegalStateException(message + " (required with CI=true)", e);
            }
            Assumptions.abort(message);
        }
    }
}
