package testapp.containers;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The container test application's in-memory H2 database, the same for both servlet namespaces. */
public final class AppDatabase {

    private static final String URL = "jdbc:h2:mem:containers;DB_CLOSE_DELAY=-1";

    private AppDatabase() {
    }

    public static void create() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(64))");
            s.execute("INSERT INTO users VALUES (1, 'ann'), (2, 'bob'), (3, 'cid')");
        }
    }

    /** One query: {@code SELECT name FROM users WHERE id = ?}; "none" when there is no such user. */
    public static String userName(int id) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT name FROM users WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : "none";
            }
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, "sa", "");
    }
}
