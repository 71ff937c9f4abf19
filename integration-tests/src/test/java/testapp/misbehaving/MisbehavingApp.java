package testapp.misbehaving;

import demo.DemoRpc;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ErrorReportValve;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * (Outside {@code dev.apmagent}, whose classes the agent never instruments.) Instrumented code that misbehaves, in one embedded Tomcat with the demo's Dubbo service (run with the demo jar on the
 * class path): {@code /jdbc} uses {@link ThrowingDriver}, {@code /error} throws {@link java.lang.Error} out of the
 * servlet, {@code /rpc-timeout} makes a Dubbo call that times out and {@code /rpc-timeout-uncaught} lets the timeout
 * escape the servlet. The main thread also uses the throwing driver outside any request. Everything observable is
 * printed (status codes, bodies, exception types and messages); the exit code is 3.
 */
public final class MisbehavingApp {

    private static final Logger containerLog = Logger.getLogger("org.apache");
    private static DemoRpc rpc;

    private MisbehavingApp() {
    }

    public static void main(String[] args) throws Exception {
        containerLog.setLevel(Level.OFF);
        DriverManager.registerDriver(new ThrowingDriver());
        rpc = DemoRpc.start("jdbc:h2:mem:misbehaving;DB_CLOSE_DELAY=-1", "sa", "");
        containerLog.setLevel(Level.OFF); // again: Dubbo's JDK logging adapter re-read the logging configuration
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("misbehaving-app").toString());
        tomcat.setPort(0);
        Context context = tomcat.addContext("", null);
        add(context, "/jdbc", new JdbcServlet());
        add(context, "/error", new ErrorServlet());
        add(context, "/rpc-timeout", new RpcTimeoutServlet());
        add(context, "/rpc-timeout-uncaught", new UncaughtRpcTimeoutServlet());
        // the error page shows the status only: an uncaught Dubbo timeout's message holds times, ports and a pid
        ErrorReportValve errorPage = new ErrorReportValve();
        errorPage.setShowReport(false);
        errorPage.setShowServerInfo(false);
        tomcat.getHost().getPipeline().addValve(errorPage);
        tomcat.getConnector();
        tomcat.start();
        int port = tomcat.getConnector().getLocalPort();
        // Tomcat logs the exceptions that escape servlets, with times and (for Dubbo's timeout) ports and a pid that
        // differ from run to run: the comparison is about what the application prints itself
        Logger root = Logger.getLogger("");
        for (java.util.logging.Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }

        System.out.println("main thread, no request:");
        System.out.print(useThrowingDriver());
        for (String path : new String[] {"/jdbc", "/error", "/rpc-timeout", "/rpc-timeout-uncaught", "/jdbc", "/error"}) {
            System.out.println("GET " + path + " -> " + get("http://127.0.0.1:" + port + path));
        }
        System.out.flush();
        tomcat.stop();
        tomcat.destroy();
        rpc.stop();
        System.exit(3);
    }

    private static void add(Context context, String pattern, HttpServlet servlet) {
        String name = servlet.getClass().getSimpleName();
        Tomcat.addServlet(context, name, servlet);
        context.addServletMappingDecoded(pattern, name);
    }

    /** Every use of the throwing driver, with what it threw. */
    static String useThrowingDriver() {
        StringBuilder out = new StringBuilder();
        Connection c = null;
        try {
            c = DriverManager.getConnection(ThrowingDriver.URL);
            out.append("connected: ").append(c.getClass().getSimpleName()).append('\n');
        } catch (Throwable t) {
            out.append("getConnection: ").append(describe(t)).append('\n');
            return out.toString();
        }
        try {
            Statement s = c.createStatement();
            step(out, "executeQuery", () -> s.executeQuery("SELECT 1"));
            step(out, "executeUpdate", () -> s.executeUpdate("UPDATE t SET x = 1"));
            step(out, "execute", () -> s.execute("DELETE FROM t"));
            step(out, "addBatch", () -> { s.addBatch("INSERT INTO t VALUES (1)"); return null; });
            step(out, "executeBatch", s::executeBatch);
            step(out, "statement close", () -> { s.close(); return null; });
            PreparedStatement ps = c.prepareStatement("SELECT * FROM t WHERE id = ?");
            step(out, "setInt", () -> { ps.setInt(1, 7); return null; });
            step(out, "prepared executeQuery", ps::executeQuery);
            step(out, "prepared execute", ps::execute);
            step(out, "prepared close", () -> { ps.close(); return null; });
        } catch (Throwable t) {
            out.append("statement factory: ").append(describe(t)).append('\n');
        }
        Connection connection = c;
        step(out, "getMetaData", connection::getMetaData);
        step(out, "commit", () -> { connection.commit(); return null; });
        step(out, "connection close", () -> { connection.close(); return null; });
        return out.toString();
    }

    private interface Step {
        Object run() throws Exception;
    }

    private static void step(StringBuilder out, String name, Step step) {
        try {
            Object result = step.run();
            out.append(name).append(": returned ").append(result).append('\n');
        } catch (Throwable t) {
            out.append(name).append(": ").append(describe(t)).append('\n');
        }
    }

    private static String describe(Throwable t) {
        return t.getClass().getName() + ": " + t.getMessage();
    }

    private static String get(String url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        connection.setReadTimeout(60_000);
        int status = connection.getResponseCode();
        InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        String body = "";
        if (in != null) {
            try (InputStream stream = in) {
                body = new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        return status + "\n" + body;
    }

    /** Uses the throwing driver inside a request and reports what happened (500). */
    public static final class JdbcServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setStatus(500);
            resp.setContentType("text/plain");
            PrintWriter w = resp.getWriter();
            w.print(useThrowingDriver());
        }
    }

    /** Throws an Error out of the servlet: Tomcat answers 500. */
    public static final class ErrorServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            throw new Error("the servlet throws an Error");
        }
    }

    /** A Dubbo call that times out, caught: 504 with the exception's type. */
    public static final class RpcTimeoutServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            try {
                resp.getWriter().print(rpc.impatientAccounts.slow(1500));
            } catch (org.apache.dubbo.rpc.RpcException e) {
                resp.setStatus(504);
                resp.getWriter().print("timed out: " + e.isTimeout() + " code " + e.getCode() + " " + e.getClass().getName());
            }
        }
    }

    /** A Dubbo call that times out, not caught: Tomcat answers 500 (its error page without the exception's text). */
    public static final class UncaughtRpcTimeoutServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.getWriter().print(rpc.impatientAccounts.slow(1500));
        }
    }
}
