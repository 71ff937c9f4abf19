package demo;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletionException;

/**
 * Outgoing HTTP calls of the demo, to itself, with the JDK's two clients: {@code /out/<client>-<case>} makes one call
 * and answers {@code <case>: <what the client returned or threw>}. The targets: {@code /status/<code>} answers that
 * status, {@code /slow} answers after one second. Cases: {@code ok}, {@code 404}, {@code 500}, {@code refused} (a port
 * nothing listens on), {@code timeout} (200 ms against {@code /slow}), {@code unread} (HttpURLConnection: the status
 * is asked, the body never read), {@code own-traceparent} (the application sets its own {@code traceparent}),
 * {@code async-ok} and {@code async-throw} (java.net.http {@code sendAsync}; in the latter the application's callback
 * throws), {@code untraced} (HttpURLConnection on a plain thread of its own, which carries no trace context: nothing
 * is active there).
 */
final class OutgoingHttp {

    static final String OWN_TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private static final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private OutgoingHttp() {
    }

    static void addTo(Context context) {
        DemoApp.add(context, "/out/*", new OutgoingServlet());
        DemoApp.add(context, "/status/*", new StatusServlet());
        DemoApp.add(context, "/slow", new SlowServlet());
    }

    /** Answers the status its path names. */
    public static final class StatusServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            int status = Integer.parseInt(req.getPathInfo().substring(1));
            resp.setStatus(status);
            resp.setContentType("text/plain");
            resp.getWriter().print("status " + status);
        }
    }

    /** Answers after one second. */
    public static final class SlowServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            resp.getWriter().print("slow");
        }
    }

    /** One outgoing call per request; see the class description. */
    public static final class OutgoingServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String name = req.getPathInfo().substring(1);
            String self = "http://127.0.0.1:" + req.getLocalPort();
            String answer;
            try {
                answer = call(name, self);
            } catch (Exception e) {
                answer = "threw " + e.getClass().getName();
            }
            resp.setContentType("text/plain");
            resp.getWriter().print(name + ": " + answer);
        }
    }

    static String call(String name, String self) throws Exception {
        switch (name) {
            case "huc-ok":
                return huc(self + "/status/200?q=1", 5000, true, false);
            case "huc-404":
                return huc(self + "/status/404", 5000, true, false);
            case "huc-500":
                return huc(self + "/status/500", 5000, true, false);
            case "huc-refused":
                return huc("http://127.0.0.1:" + closedPort() + "/x", 5000, true, false);
            case "huc-timeout":
                return huc(self + "/slow", 200, true, false);
            case "huc-unread":
                return huc(self + "/status/200", 5000, false, false);
            case "huc-own-traceparent":
                return huc(self + "/status/200", 5000, true, true);
            case "untraced": {
                String[] result = new String[1];
                Thread plain = new Thread(() -> {
                    try {
                        result[0] = huc(self + "/status/201", 5000, true, false);
                    } catch (IOException e) {
                        result[0] = "threw " + e.getClass().getName();
                    }
                });
                plain.start();
                plain.join();
                return result[0];
            }
            case "jdk-ok":
                return jdk(self + "/status/200", null);
            case "jdk-404":
                return jdk(self + "/status/404", null);
            case "jdk-500":
                return jdk(self + "/status/500", null);
            case "jdk-refused":
                return jdk("http://127.0.0.1:" + closedPort() + "/x", null);
            case "jdk-timeout":
                return jdk(self + "/slow", Duration.ofMillis(200));
            case "jdk-own-traceparent":
                return String.valueOf(client.send(HttpRequest.newBuilder(URI.create(self + "/status/200"))
                        .header("traceparent", OWN_TRACEPARENT).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            case "jdk-async-ok":
                return client.sendAsync(HttpRequest.newBuilder(URI.create(self + "/status/200")).build(),
                        HttpResponse.BodyHandlers.ofString()).thenApply(r -> r.statusCode() + " " + r.body()).join();
            case "jdk-async-throw":
                try {
                    return client.sendAsync(HttpRequest.newBuilder(URI.create(self + "/status/200")).build(),
                            HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
                                throw new IllegalStateException("callback of the application");
                            }).join().toString();
                } catch (CompletionException e) {
                    return "callback threw " + e.getCause().getMessage();
                }
            default:
                return "no such case";
        }
    }

    private static String huc(String url, int timeoutMillis, boolean readBody, boolean ownTraceparent) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
        c.setConnectTimeout(timeoutMillis);
        c.setReadTimeout(timeoutMillis);
        if (ownTraceparent) {
            c.setRequestProperty("traceparent", OWN_TRACEPARENT);
        }
        int status = c.getResponseCode();
        if (!readBody) {
            return String.valueOf(status);
        }
        InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
        try (InputStream body = in) {
            return status + " " + new String(body.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static String jdk(String url, Duration timeout) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (timeout != null) {
            b.timeout(timeout);
        }
        HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
