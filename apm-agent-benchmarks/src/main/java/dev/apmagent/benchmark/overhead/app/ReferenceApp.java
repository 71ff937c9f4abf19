package dev.apmagent.benchmark.overhead.app;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * A small web application of the usual shape, for measuring what an agent costs it:
 * <ul>
 *   <li>{@code GET /hello}: a small JSON document, no I/O;</li>
 *   <li>{@code GET /db}: one prepared SELECT by primary key through the pool;</li>
 *   <li>{@code GET /db3}: three statements on one connection (SELECT by key, UPDATE by key, an aggregate SELECT);</li>
 *   <li>{@code GET /heap}: runs the garbage collector and returns the heap in use after it,
 *       so the harness reads "heap after GC" the same way under every agent.</li>
 * </ul>
 * Usage: {@code java -jar reference-app.jar PORT [POOL_SIZE]}. Tomcat's connector keeps connections alive without a
 * request limit, so that the load generator measures requests and not TCP handshakes.
 */
public final class ReferenceApp {

    static final int ROWS = 1000;
    /** Every request a servlet handled, this one included: the harness's count of what the agents should have traced. */
    static final LongAdder SERVED = new LongAdder();

    private ReferenceApp() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        int poolSize = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        HikariDataSource dataSource = dataSource(poolSize);
        createSchema(dataSource);

        Path base = Files.createTempDirectory("reference-app-tomcat");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("maxKeepAliveRequests", "-1");
        connector.setProperty("keepAliveTimeout", "60000");
        connector.setProperty("maxThreads", "200");
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", base.toString());
        add(tomcat, context, "hello", "/hello", new HelloServlet());
        add(tomcat, context, "db", "/db", new DbServlet(dataSource));
        add(tomcat, context, "db3", "/db3", new Db3Servlet(dataSource));
        add(tomcat, context, "heap", "/heap", new HeapServlet());
        tomcat.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                tomcat.stop();
            } catch (Exception ignored) {
                // the JVM is going away
            }
            dataSource.close();
        }, "reference-app-shutdown"));
        tomcat.getServer().await();
    }

    private static void add(Tomcat tomcat, Context context, String name, String pattern, HttpServlet servlet) {
        Tomcat.addServlet(context, name, servlet);
        context.addServletMappingDecoded(pattern, name);
    }

    static HikariDataSource dataSource(int poolSize) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:reference;DB_CLOSE_DELAY=-1");
        config.setUsername("sa");
        config.setPassword("");
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setPoolName("reference-app");
        return new HikariDataSource(config);
    }

    static void createSchema(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL, price INT NOT NULL,"
                    + " hits BIGINT NOT NULL)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO items VALUES (?, ?, ?, 0)")) {
                for (int i = 0; i < ROWS; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, "item-" + i);
                    insert.setInt(3, (i * 7919) % 1000);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }

    static void writeJson(HttpServletResponse response, String json) throws IOException {
        SERVED.increment();
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    static final class HelloServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            writeJson(response, "{\"message\":\"hello\",\"service\":\"reference-app\"}");
        }
    }

    static final class DbServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final transient DataSource dataSource;

        DbServlet(DataSource dataSource) {
            this.dataSource = dataSource;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            int id = ThreadLocalRandom.current().nextInt(ROWS);
            try (Connection c = dataSource.getConnection();
                    PreparedStatement select = c.prepareStatement("SELECT id, name, price FROM items WHERE id = ?")) {
                select.setInt(1, id);
                try (ResultSet rs = select.executeQuery()) {
                    if (!rs.next()) {
                        SERVED.increment();
                        response.sendError(404);
                        return;
                    }
                    writeJson(response, "{\"id\":" + rs.getInt(1) + ",\"name\":\"" + rs.getString(2)
                            + "\",\"price\":" + rs.getInt(3) + "}");
                }
            } catch (SQLException e) {
                SERVED.increment();
                response.sendError(500, e.getMessage());
            }
        }
    }

    static final class Db3Servlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final transient DataSource dataSource;

        Db3Servlet(DataSource dataSource) {
            this.dataSource = dataSource;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            int id = random.nextInt(ROWS);
            try (Connection c = dataSource.getConnection()) {
                String name;
                try (PreparedStatement select = c.prepareStatement("SELECT name FROM items WHERE id = ?")) {
                    select.setInt(1, id);
                    try (ResultSet rs = select.executeQuery()) {
                        name = rs.next() ? rs.getString(1) : "";
                    }
                }
                int updated;
                try (PreparedStatement update = c.prepareStatement("UPDATE items SET hits = hits + 1 WHERE id = ?")) {
                    update.setInt(1, id);
                    updated = update.executeUpdate();
                }
                long cheaper;
                try (PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM items WHERE price < ?")) {
                    count.setInt(1, random.nextInt(1000));
                    try (ResultSet rs = count.executeQuery()) {
                        cheaper = rs.next() ? rs.getLong(1) : 0;
                    }
                }
                writeJson(response, "{\"id\":" + id + ",\"name\":\"" + name + "\",\"updated\":" + updated
                        + ",\"cheaper\":" + cheaper + "}");
            } catch (SQLException e) {
                SERVED.increment();
                response.sendError(500, e.getMessage());
            }
        }
    }

    static final class HeapServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            System.gc();
            System.gc();
            long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            writeJson(response, "{\"heapUsedAfterGc\":" + used + ",\"requestsServed\":" + (SERVED.sum() + 1) + "}");
        }
    }
}
