package demo;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.h2.jdbcx.JdbcDataSource;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The demo the README runs: an embedded Tomcat with a few endpoints over an in-memory H2 database and a Dubbo provider
 * and consumer in the same JVM, a short scripted load against itself, then exit. Run it with the agent and
 * {@code output_file} to see its traces.
 *
 * <p>{@code /accounts/<id>} calls the Dubbo service {@link AccountService}, whose provider runs a JDBC query: one trace
 * across servlet, Dubbo and JDBC. The provider's database is the demo's H2 unless the system property
 * {@code demo.rpc.db.url} names another ({@code demo.rpc.db.user}, {@code demo.rpc.db.password}); the integration
 * tests point it at PostgreSQL. {@code /rpc-timeout} makes a Dubbo call that times out and answers 504.
 */
public final class DemoApp {

    private static final String H2_URL = "jdbc:h2:mem:demo;DB_CLOSE_DELAY=-1";
    private static final DataSource database = database();
    /** Tomcat's (and Dubbo's) own INFO lines would bury the demo's output. */
    private static final Logger containerLog = Logger.getLogger("org.apache");
    private static volatile DemoRpc rpc;

    private DemoApp() {
    }

    /**
     * {@code [rounds]}: serve, drive that many rounds of requests (default 5), exit. {@code serve}: serve until standard
     * input closes (for tests that attach the agent to the running demo).
     */
    public static void main(String[] args) throws Exception {
        boolean serveOnly = args.length > 0 && args[0].equals("serve");
        int rounds = args.length > 0 && !serveOnly ? Integer.parseInt(args[0]) : 5;
        containerLog.setLevel(Level.OFF);
        createSchema();
        rpc = DemoRpc.start(System.getProperty("demo.rpc.db.url", H2_URL), System.getProperty("demo.rpc.db.user", "sa"),
                System.getProperty("demo.rpc.db.password", ""));
        containerLog.setLevel(Level.OFF); // again: Dubbo's JDK logging adapter re-read the logging configuration
        File baseDir = Files.createTempDirectory("apm-agent-demo").toFile();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.getAbsolutePath());
        tomcat.setPort(0);
        Context context = tomcat.addContext("", null);
        add(context, "/hello", new HelloServlet());
        add(context, "/users/*", new UserServlet());
        add(context, "/orders", new OrderServlet());
        add(context, "/fail", new FailingServlet());
        add(context, "/accounts/*", new AccountServlet());
        add(context, "/rpc-timeout", new RpcTimeoutServlet());
        add(context, "/report", new ReportServlet());
        add(context, "/handoffs", new HandOffServlet());
        OutgoingHttp.addTo(context);
        tomcat.getConnector();
        tomcat.start();
        int port = tomcat.getConnector().getLocalPort();
        System.out.println("demo listening on http://127.0.0.1:" + port + " pid " + pid());
        if (serveOnly) {
            while (System.in.read() >= 0) {
                // serve until standard input closes
            }
            stop(tomcat);
            return;
        }

        int ok = 0;
        int failed = 0;
        for (int i = 0; i < rounds; i++) {
            for (String path : new String[] {"/hello", "/users/" + (1 + i % 3), "/orders", "/accounts/" + (1 + i % 3), "/report",
                    "/handoffs", "/out/huc-ok", "/out/jdk-async-ok", "/fail"}) {
                int status = get("http://127.0.0.1:" + port + path);
                if (status < 400) {
                    ok++;
                } else {
                    failed++;
                }
            }
        }
        System.out.println("demo served " + (ok + failed) + " requests: " + ok + " ok, " + failed + " failed");
        stop(tomcat);
    }

    /** Stops Tomcat and Dubbo, then exits: Dubbo's own threads would otherwise keep the JVM alive for a while. */
    private static void stop(Tomcat tomcat) throws Exception {
        tomcat.stop();
        tomcat.destroy();
        rpc.stop();
        System.out.flush();
        System.exit(0);
    }

    private static String pid() {
        String name = java.lang.management.ManagementFactory.getRuntimeMXBean().getName();
        return name.substring(0, name.indexOf('@'));
    }

    static void add(Context context, String pattern, HttpServlet servlet) {
        String name = servlet.getClass().getSimpleName();
        Tomcat.addServlet(context, name, servlet);
        context.addServletMappingDecoded(pattern, name);
    }

    private static int get(String url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        int status = connection.getResponseCode();
        InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        if (in != null) {
            while (in.read() >= 0) {
                // drain so the connection is reused
            }
            in.close();
        }
        return status;
    }

    private static DataSource database() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(H2_URL);
        ds.setUser("sa");
        return ds;
    }

    private static void createSchema() throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(64))");
            s.execute("CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, user_id INT, amount DECIMAL(10,2))");
            s.execute("INSERT INTO users VALUES (1, 'ann'), (2, 'bob'), (3, 'cid')");
        }
    }

    /** Plain answer, no database. */
    public static final class HelloServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print("hello");
        }
    }

    /** One query. */
    public static final class UserServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            int id = Integer.parseInt(req.getPathInfo().substring(1));
            try (Connection c = database.getConnection();
                 PreparedStatement ps = c.prepareStatement("SELECT name FROM users WHERE id = ?")) {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    resp.getWriter().print(rs.next() ? rs.getString(1) : "none");
                }
            } catch (SQLException e) {
                throw new IOException(e);
            }
        }
    }

    /** Three statements: insert, update, aggregate. */
    public static final class OrderServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO orders (user_id, amount) VALUES (1, 9.99)");
                s.executeUpdate("UPDATE orders SET amount = amount * 2 WHERE user_id = 1");
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(amount) FROM orders")) {
                    rs.next();
                    resp.getWriter().print(rs.getInt(1) + " orders");
                }
            } catch (SQLException e) {
                throw new IOException(e);
            }
        }
    }

    /** Fails with a database error: a failed span, its error, and a 500 that fails the transaction. */
    public static final class FailingServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT * FROM missing_table");
            } catch (SQLException e) {
                resp.sendError(500, "the demo's failing endpoint: " + e.getMessage());
            }
        }
    }

    /** Calls the Dubbo service, whose provider runs one query. */
    public static final class AccountServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            int id = Integer.parseInt(req.getPathInfo().substring(1));
            resp.setContentType("text/plain");
            resp.getWriter().print("account " + id + ": " + rpc.accounts.name(id));
        }
    }

    /** A Dubbo call that times out (the provider sleeps 1.5 s, the consumer waits 300 ms): 504 with the exception's type. */
    public static final class RpcTimeoutServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            try {
                resp.getWriter().print(rpc.impatientAccounts.slow(1500));
            } catch (org.apache.dubbo.rpc.RpcException e) {
                resp.setStatus(504);
                resp.setContentType("text/plain");
                resp.getWriter().print("timed out: " + e.isTimeout() + " " + e.getClass().getName());
            }
        }
    }

    /**
     * Two counts queried in parallel on a thread pool: the query spans recorded on the pool's threads belong to the
     * request's trace, children of its transaction.
     */
    public static final class ReportServlet extends HttpServlet {
        private static final ExecutorService workers = Executors.newFixedThreadPool(2, daemon("demo-report-worker"));

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            Future<Integer> users = workers.submit(() -> count("SELECT COUNT(*) FROM users"));
            Future<Integer> orders = workers.submit(() -> count("SELECT COUNT(*) FROM orders"));
            try {
                resp.setContentType("text/plain");
                resp.getWriter().print(users.get() + " users, " + orders.get() + " orders");
            } catch (InterruptedException | ExecutionException e) {
                throw new IOException(e);
            }
        }

        private static int count(String sql) throws SQLException {
            try (Connection c = database.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /**
     * One query through each way of handing work to another thread, each marked in its SQL ({@code via-<how>}), so a
     * test can find each span and check that its parent is the request's transaction: a thread pool, a scheduled
     * pool, a fork-join pool (submit, and a forked subtask), {@code CompletableFuture} on the default executor and on
     * a pool, a parallel stream, a pool task that hands on to a fork-join pool, a new thread, and on Java 21+ a
     * virtual thread and a virtual-thread-per-task executor. Answers the list of what ran.
     */
    public static final class HandOffServlet extends HttpServlet {
        private static final boolean HAS_VIRTUAL_THREADS =
                Integer.parseInt(System.getProperty("java.specification.version").replaceFirst("^1\\.", "")) >= 21;
        private static final ExecutorService pool = Executors.newFixedThreadPool(2, daemon("demo-handoff-pool"));
        private static final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1, daemon("demo-handoff-scheduler"));
        private static final ForkJoinPool forkJoin = new ForkJoinPool(2);

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            List<String> ran = new ArrayList<String>();
            try {
                ran.add(pool.submit(query("executor")).get());
                ran.add(scheduler.schedule(query("scheduled"), 1, TimeUnit.MILLISECONDS).get());
                ran.add(forkJoin.submit(query("fork-join")).get());
                ran.add(forkJoin.invoke(new ForkedQuery()));
                ran.add(CompletableFuture.supplyAsync(unchecked(query("completable-default"))).get());
                ran.add(CompletableFuture.supplyAsync(unchecked(query("completable-pool")), pool).get());
                ran.add(IntStream.range(0, 4).parallel().mapToObj(i -> unchecked(query("parallel-stream")).get()).findAny().get());
                ran.add(pool.submit(() -> forkJoin.submit(query("nested")).get()).get());
                String[] onThread = new String[1];
                Thread thread = new Thread(() -> onThread[0] = unchecked(query("thread")).get());
                thread.start();
                thread.join();
                ran.add(onThread[0]);
                if (HAS_VIRTUAL_THREADS) {
                    ran.addAll(virtualThreads());
                }
            } catch (Exception e) {
                throw new IOException(e);
            }
            resp.setContentType("text/plain");
            resp.getWriter().print(String.join(" ", ran));
        }

        /** Java 21 APIs, called reflectively: the demo compiles for Java 8. */
        private static List<String> virtualThreads() throws Exception {
            List<String> ran = new ArrayList<String>();
            String[] onThread = new String[1];
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Thread thread = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
                    .invoke(builder, (Runnable) () -> {
                        try {
                            Thread.sleep(5); // unmounted and mounted again, maybe on another carrier: the context stays
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        onThread[0] = unchecked(query("virtual-thread")).get();
                    });
            thread.join();
            ran.add(onThread[0]);
            ExecutorService perTask = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
            try {
                ran.add(perTask.submit(query("virtual-executor")).get());
            } finally {
                perTask.shutdown();
            }
            return ran;
        }

        /** Runs its query in a forked subtask. */
        private static final class ForkedQuery extends RecursiveTask<String> {
            private final boolean leaf;

            ForkedQuery() {
                this(false);
            }

            private ForkedQuery(boolean leaf) {
                this.leaf = leaf;
            }

            @Override
            protected String compute() {
                if (leaf) {
                    return unchecked(query("fork")).get();
                }
                return new ForkedQuery(true).fork().join();
            }
        }

        private static Callable<String> query(String via) {
            return () -> {
                try (Connection c = database.getConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM users WHERE name <> 'via-" + via + "'")) {
                    rs.next();
                    return via;
                }
            };
        }

        private static java.util.function.Supplier<String> unchecked(Callable<String> callable) {
            return () -> {
                try {
                    return callable.call();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
        }
    }

    /** Daemon threads named {@code name}: the demo's pools never keep the JVM alive. */
    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return task -> {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            return t;
        };
    }
}
