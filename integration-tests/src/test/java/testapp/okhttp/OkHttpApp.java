package testapp.okhttp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * OkHttp calling the Tomcat it runs in (OkHttpClientIT): {@code /call/<case>} makes the case's call(s) to
 * {@code /downstream/...} of the same server, both sides under the agent, and answers what the client saw.
 * {@code /idle} measures, on a thread of its own with nothing active, the bytes one synchronous call allocates on the
 * calling thread. Serves until standard input closes.
 */
public final class OkHttpApp {

    private static final Logger containerLog = Logger.getLogger("org.apache");
    static final OkHttpClient client = new OkHttpClient.Builder().readTimeout(10, TimeUnit.SECONDS).build();
    static volatile String base;
    /** Requests to {@code /downstream/idle} that carried a traceparent. */
    static final AtomicLong idleWithTraceparent = new AtomicLong();

    private OkHttpApp() {
    }

    public static void main(String[] args) throws Exception {
        containerLog.setLevel(Level.OFF);
        File baseDir = Files.createTempDirectory("apm-okhttp-app").toFile();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.getAbsolutePath());
        tomcat.setPort(0);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "downstream", new DownstreamServlet());
        context.addServletMappingDecoded("/downstream/*", "downstream");
        Tomcat.addServlet(context, "call", new CallServlet());
        context.addServletMappingDecoded("/call/*", "call");
        Tomcat.addServlet(context, "idle", new IdleServlet());
        context.addServletMappingDecoded("/idle", "idle");
        tomcat.getConnector();
        tomcat.start();
        base = "http://127.0.0.1:" + tomcat.getConnector().getLocalPort();
        System.out.println("okhttp app listening on " + base);
        while (System.in.read() >= 0) {
            // serve until standard input closes
        }
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
        tomcat.stop();
        tomcat.destroy();
    }

    static Request get(String path) {
        return new Request.Builder().url(base + path).build();
    }

    static String body(Response response) throws IOException {
        try {
            return response.code() + " " + response.body().string();
        } finally {
            response.close();
        }
    }

    /** The called side: {@code /downstream/status/N} answers N, {@code /downstream/slow} after 10 s, else 200 "hello". */
    static final class DownstreamServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String path = req.getPathInfo() == null ? "" : req.getPathInfo();
            if (path.equals("/idle") && req.getHeader("traceparent") != null) {
                idleWithTraceparent.incrementAndGet();
            }
            if (path.startsWith("/status/")) {
                resp.setStatus(Integer.parseInt(path.substring("/status/".length())));
                resp.getWriter().print("status");
                return;
            }
            if (path.equals("/slow")) {
                try {
                    Thread.sleep(10_000); // far beyond the caller's read timeout, even on a loaded machine
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            resp.getWriter().print("hello");
        }
    }

    /** The calling side, one case per path. */
    static final class CallServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String result;
            try {
                result = call(req.getPathInfo());
            } catch (Exception e) {
                result = "threw " + e.getClass().getName();
            }
            resp.getWriter().print(result);
        }

        private static String call(String which) throws Exception {
            switch (which) {
                case "/ok":
                    return body(client.newCall(get("/downstream/ok?q=1")).execute());
                case "/404":
                    return body(client.newCall(get("/downstream/status/404")).execute());
                case "/500":
                    return body(client.newCall(get("/downstream/status/500")).execute());
                case "/refused":
                    int closed;
                    try (ServerSocket socket = new ServerSocket(0)) {
                        closed = socket.getLocalPort();
                    }
                    return body(client.newCall(new Request.Builder().url("http://127.0.0.1:" + closed + "/").build()).execute());
                case "/timeout":
                    OkHttpClient impatient = client.newBuilder().readTimeout(300, TimeUnit.MILLISECONDS).build();
                    return body(impatient.newCall(get("/downstream/slow")).execute());
                case "/unread":
                    Response unread = client.newCall(get("/downstream/ok")).execute();
                    unread.close(); // the body is never read
                    return "closed " + unread.code();
                case "/own-traceparent":
                    return body(client.newCall(get("/downstream/ok").newBuilder()
                            .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01").build()).execute());
                case "/retry":
                    OkHttpClient retrying = client.newBuilder().addInterceptor(chain -> {
                        chain.proceed(chain.request()).close();
                        return chain.proceed(chain.request());
                    }).build();
                    return body(retrying.newCall(get("/downstream/ok")).execute());
                case "/async":
                    return async(false);
                case "/async-throws":
                    return async(true);
                default:
                    return "unknown case " + which;
            }
        }

        /**
         * enqueue: the callback makes a synchronous call of its own (which shows in which context it runs), then
         * throws if asked to.
         */
        private static String async(boolean callbackThrows) throws InterruptedException {
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<String> seen = new AtomicReference<>("no callback");
            client.newCall(get("/downstream/status/503")).enqueue(new Callback() {
                @Override
                public void onFailure(Call call, IOException e) {
                    seen.set("failure " + e);
                    done.countDown();
                }

                @Override
                public void onResponse(Call call, Response response) throws IOException {
                    try {
                        seen.set(body(response) + ", then " + body(client.newCall(get("/downstream/ok?from=callback")).execute()));
                    } finally {
                        done.countDown();
                    }
                    if (callbackThrows) {
                        throw new IllegalStateException("the application's callback fails");
                    }
                }
            });
            if (!done.await(20, TimeUnit.SECONDS)) {
                return "callback never came";
            }
            return seen.get();
        }
    }

    /**
     * {@code /idle}: on a new thread (not a pool's: nothing is active there), warms up, then answers the bytes one
     * synchronous call allocates on that thread, on average ({@code com.sun.management.ThreadMXBean}), and how many
     * of the calls reached the server with a traceparent.
     */
    static final class IdleServlet extends HttpServlet {
        private static final int WARM_UP = 500;
        private static final int CALLS = 1000;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            AtomicLong bytesPerCall = new AtomicLong(-1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread idle = new Thread(() -> {
                try {
                    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                    Request request = get("/downstream/idle");
                    for (int i = 0; i < WARM_UP; i++) {
                        client.newCall(request).execute().close();
                    }
                    long before = threads.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < CALLS; i++) {
                        client.newCall(request).execute().close();
                    }
                    bytesPerCall.set((threads.getCurrentThreadAllocatedBytes() - before) / CALLS);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "idle-caller");
            idle.start();
            try {
                idle.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            resp.getWriter().print(failure.get() != null ? "failed " + failure.get()
                    : bytesPerCall.get() + " bytes per call, " + idleWithTraceparent.get() + " with traceparent");
        }
    }
}
