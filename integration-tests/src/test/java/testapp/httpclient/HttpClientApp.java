package testapp.httpclient;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The HTTP client test application (ApacheHttpClientIT): an embedded Tomcat that is both the caller and the called
 * service, and HTTP client libraries each in a class loader of its own.
 *
 * <p>Arguments: {@code name=libDir=ScenarioClass} per library. Each library's jars (every jar in libDir) and its
 * scenario class (from this application's classes, loaded child-first so it links against those jars) form one class
 * loader. For every case the scenario lists, the application asks its own {@code /scenario} endpoint, so that the case
 * runs inside a traced request; the scenario calls {@code /downstream} (or {@code /redirect}) with a {@code case}
 * parameter naming it, which the test finds again in the exit span's URL. Cases listed after {@code direct:} run on
 * the main thread, where nothing is active. Prints {@code RESULT <lib> <case> => <what the scenario returned>}.
 */
public final class HttpClientApp {

    private static final Logger containerLog = Logger.getLogger("org.apache");
    static final Map<String, Function<String, String>> scenarios = new LinkedHashMap<>();
    static volatile String base;

    private HttpClientApp() {
    }

    public static void main(String[] args) throws Exception {
        containerLog.setLevel(Level.OFF);
        Path classes = Paths.get(HttpClientApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        for (String arg : args) {
            String[] parts = arg.split("=", 3);
            scenarios.put(parts[0], load(classes, Paths.get(parts[1]), parts[2]));
        }
        File baseDir = Files.createTempDirectory("apm-httpclient-app").toFile();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.getAbsolutePath());
        tomcat.setPort(0);
        Context context = tomcat.addContext("", null);
        add(context, "/downstream", new DownstreamServlet());
        add(context, "/redirect", new RedirectServlet());
        add(context, "/scenario", new ScenarioServlet());
        tomcat.getConnector();
        tomcat.start();
        base = "http://127.0.0.1:" + tomcat.getConnector().getLocalPort();
        System.out.println("listening on " + base);
        for (Map.Entry<String, Function<String, String>> e : scenarios.entrySet()) {
            String lib = e.getKey();
            String[] lists = e.getValue().apply("cases").split("direct:", -1);
            for (String c : lists[0].split(",")) {
                if (!c.isEmpty()) {
                    System.out.println("RESULT " + lib + " " + c + " => " + get(base + "/scenario?lib=" + lib + "&case=" + c));
                }
            }
            for (String c : lists.length > 1 ? lists[1].split(",") : new String[0]) {
                if (!c.isEmpty()) {
                    System.out.println("RESULT " + lib + " " + c + " => " + run(lib, c));
                }
            }
        }
        Thread.sleep(500); // the downstream transactions of the last cases end on Tomcat's threads
        tomcat.stop();
        tomcat.destroy();
        System.out.println("done");
        System.exit(0);
    }

    static String run(String lib, String c) {
        try {
            return scenarios.get(lib).apply(c + "|" + base + "|" + lib + "-" + c);
        } catch (Throwable t) {
            return "scenario threw " + t;
        }
    }

    @SuppressWarnings("unchecked")
    private static Function<String, String> load(Path classes, Path libDir, String scenarioClass) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(classes.toUri().toURL());
        try (java.util.stream.Stream<Path> jars = Files.list(libDir)) {
            jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(p -> {
                try {
                    urls.add(p.toUri().toURL());
                } catch (IOException ex) {
                    throw new IllegalStateException(ex);
                }
            });
        }
        ClassLoader loader = new ChildFirst(urls.toArray(new URL[0]), HttpClientApp.class.getClassLoader());
        return (Function<String, String>) loader.loadClass(scenarioClass).getDeclaredConstructor().newInstance();
    }

    /** Loads the scenario package and everything its jars hold itself; the rest (the JDK, Tomcat) from the parent. */
    static final class ChildFirst extends URLClassLoader {
        ChildFirst(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null && !name.startsWith("java.") && (name.startsWith("testapp.httpclient.scenario.")
                        || (!name.startsWith("testapp.") && findResource(name.replace('.', '/') + ".class") != null))) {
                    c = findClass(name);
                }
                if (c == null) {
                    return super.loadClass(name, resolve);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    private static void add(Context context, String pattern, HttpServlet servlet) {
        String name = servlet.getClass().getSimpleName();
        Tomcat.addServlet(context, name, servlet);
        context.addServletMappingDecoded(pattern, name);
    }

    static String get(String url) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
        c.setReadTimeout(30_000);
        try (InputStream in = c.getResponseCode() >= 400 ? c.getErrorStream() : c.getInputStream()) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
    }

    /**
     * The called service: answers {@code status} (default 200) after {@code sleep} ms with what it received: the
     * {@code traceparent} header and how many of them came.
     */
    public static final class DownstreamServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String sleep = req.getParameter("sleep");
            if (sleep != null) {
                try {
                    Thread.sleep(Long.parseLong(sleep));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            String status = req.getParameter("status");
            resp.setStatus(status == null ? 200 : Integer.parseInt(status));
            resp.setContentType("text/plain");
            int count = Collections.list(req.getHeaders("traceparent")).size();
            resp.getWriter().print("traceparent=" + req.getHeader("traceparent") + " count=" + count);
        }
    }

    /** Redirects to {@code /downstream} with the same query. */
    public static final class RedirectServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.sendRedirect("/downstream?" + req.getQueryString());
        }
    }

    /** Runs one case of one library inside this traced request. */
    public static final class ScenarioServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String result = run(req.getParameter("lib"), req.getParameter("case"));
            resp.setContentType("text/plain");
            resp.getWriter().print(result);
        }
    }
}
