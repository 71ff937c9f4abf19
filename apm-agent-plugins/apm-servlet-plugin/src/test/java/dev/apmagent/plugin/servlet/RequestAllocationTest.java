package dev.apmagent.plugin.servlet;

import dev.apmagent.config.Config;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Tracer;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ValveBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the agent allocates per request with {@code capture_headers=false}: a Tomcat valve in front of the servlet
 * measures the container thread's allocated bytes around the whole chain (where the agent's advice runs), once with
 * tracing and once without; the difference is the agent's. The events are recycled as the real reporter does.
 *
 * <p>The servlet reads the request properties the agent captures (URI, method, host, remote address, ...), as any
 * routing framework does: Tomcat materializes some of them as new Strings on the first read of each request (184 B for
 * the URI on Tomcat 10.1), a cost the agent adds only to applications that never read them. This test isolates
 * what the agent's own code allocates.
 */
class RequestAllocationTest {

    private static final int WARM_UP = 3000;
    private static final int MEASURED = 1000;
    private static final int MAX_ROUNDS = 12;

    @TempDir
    Path baseDir;

    private Tomcat tomcat;
    private int port;
    private PluginAgent agent;
    private final AllocationValve valve = new AllocationValve();
    private String path = "/plain";
    private boolean withHeaders;

    @BeforeEach
    void start() throws Exception {
        agent = AbstractServletContainerTest.installAgent();
        tomcat = new Tomcat();
        tomcat.setPort(0);
        tomcat.setBaseDir(baseDir.toString());
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "plain", new PlainServlet());
        context.addServletMappingDecoded("/plain", "plain");
        context.getPipeline().addValve(valve);
        tomcat.getConnector();
        tomcat.start();
        port = tomcat.getConnector().getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        tomcat.stop();
        tomcat.destroy();
        agent.stopTracer();
    }

    /** Not recorded (sampled out): the agent decides, keeps name, result and duration, and allocates nothing. */
    @Test
    void anUnsampledRequestAllocatesNothing() throws Exception {
        assertThat(addedBytesPerRequest(0.0)).isLessThan(8.0);
    }

    /**
     * Recorded with its context: the agent's code allocates nothing, but reading the context costs Tomcat a new String
     * per call of {@code getServerName()} and {@code getRemoteAddr()} (seen with a JFR allocation profile: every
     * sample in the agent's frames is inside {@code org.apache.tomcat.util.buf}), about 56 B per request.
     */
    @Test
    void aSampledRequestAllocatesOnlyTheContainersStrings() throws Exception {
        assertThat(addedBytesPerRequest(1.0)).isLessThan(64.0);
    }

    /**
     * Secrets in the query and in a path parameter cost the application's thread nothing: the URL keeps references, and
     * the redaction happens when the reporter reads it. Compared with a URL of the same length and shape that has
     * nothing to redact, since Tomcat itself allocates per request for a query string the agent reads (a new String per
     * {@code getQueryString()}; 72 B for {@code q=1}, more for longer ones), as for the server name above.
     */
    @Test
    void secretsInTheUrlCostTheApplicationThreadNothing() throws Exception {
        path = "/plain;xsessionid=S3SS10N?xassword=hunter2&id=1";
        double nothingToRedact = addedBytesPerRequest(1.0);
        agent.stopTracer();
        path = "/plain;jsessionid=S3SS10N?password=hunter2&id=1";
        double secrets = addedBytesPerRequest(1.0);
        assertThat(secrets - nothingToRedact).isLessThan(8.0);
    }

    /**
     * Request headers (a cookie and a repeated header among them) and response headers are copied from Tomcat's own
     * buffers into the transaction's: once warm, capturing them costs the application's thread nothing. Compared with
     * the same requests traced with {@code capture_headers=false}. (Through the servlet API, Tomcat built a String per
     * name and value, an Enumeration per name, a list of the response's names and the cookies: 5,744 B per request for
     * these ten request and four response headers, on Tomcat 10.1.48 and JDK 17.)
     */
    @Test
    void capturingHeadersCostsTheApplicationThreadNothingOnTomcat() throws Exception {
        withHeaders = true;
        double withoutHeaders = addedBytesPerRequest(1.0, false);
        agent.stopTracer();
        double captured = addedBytesPerRequest(1.0, true);
        System.out.printf("capturing headers: %.1f B per request%n", captured - withoutHeaders);
        assertThat(captured - withoutHeaders).isLessThan(8.0);
    }

    private double addedBytesPerRequest(double sampleRate) throws IOException {
        return addedBytesPerRequest(sampleRate, false);
    }

    private double addedBytesPerRequest(double sampleRate, boolean captureHeaders) throws IOException {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put("capture_headers", captureHeaders);
        options.put("transaction_sample_rate", sampleRate);
        agent.startTracer(options);
        agent.reporter().setDropping(true); // release at once, as the reporter does after serializing
        Tracer tracer = agent.tracer();
        Config config = GlobalTracer.config();

        requests(WARM_UP);
        GlobalTracer.set(null, null);
        requests(WARM_UP);

        // Tomcat's own allocation per request drops by about 110 B at some point when the JIT gets to it: rounds of
        // each mode in turn until two rounds in a row agree, and the lowest of each, compare the two modes at the same
        // stage of compilation
        double untraced = Double.MAX_VALUE;
        double traced = Double.MAX_VALUE;
        double lastU = -1;
        double lastT = -1;
        StringBuilder rounds = new StringBuilder();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            double u = measure(null, config);
            double t = measure(tracer, config);
            untraced = Math.min(untraced, u);
            traced = Math.min(traced, t);
            rounds.append(String.format(" (%.1f, %.1f)", u, t));
            boolean settled = Math.abs(u - lastU) < 2 && Math.abs(t - lastT) < 2;
            lastU = u;
            lastT = t;
            if (round >= 2 && settled) {
                break;
            }
        }
        double added = traced - untraced;
        System.out.printf("sample rate %.1f: %.1f B per request added by the agent (lowest traced %.1f, lowest untraced %.1f;"
                + " rounds untraced/traced:%s)%n", sampleRate, added, traced, untraced, rounds);
        return added;
    }

    private double measure(Tracer tracing, Config config) throws IOException {
        GlobalTracer.set(tracing, config);
        valve.reset();
        requests(MEASURED);
        return (double) valve.bytes.get() / valve.requests.get();
    }

    private void requests(int count) throws IOException {
        for (int i = 0; i < count; i++) {
            HttpURLConnection connection = (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
            if (withHeaders) {
                connection.addRequestProperty("X-Request-Id", "f3a9c2d0-5b1e-4c7a-9e2f-0d8b6a4c1e37");
                connection.addRequestProperty("Accept-Language", "en-GB,en;q=0.9");
                connection.addRequestProperty("X-Tag", "a");
                connection.addRequestProperty("X-Tag", "b");
                connection.addRequestProperty("Authorization", "Bearer s3cr3t");
                connection.addRequestProperty("Cookie", "JSESSIONID=0123456789ABCDEF; theme=dark");
            }
            assertThat(connection.getResponseCode()).isEqualTo(200);
            try (InputStream in = connection.getInputStream()) {
                in.readAllBytes();
            }
        }
    }

    /** A minimal servlet that reads what a routing framework reads, then answers one byte. */
    static final class PlainServlet extends HttpServlet {
        static volatile int sink;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            sink += req.getRequestURI().length() + req.getMethod().length() + req.getServerName().length()
                    + req.getRemoteAddr().length() + req.getProtocol().length() + req.getScheme().length() + req.getServerPort()
                    + (req.getQueryString() == null ? 0 : 1);
            resp.setStatus(200);
            resp.setHeader("X-Answer", "42");
            resp.addHeader("X-Tag", "a");
            resp.addHeader("X-Tag", "b");
            resp.getOutputStream().write('k');
        }
    }

    /** Measures the allocated bytes of the container thread while the rest of the pipeline (filters, servlet) runs. */
    static final class AllocationValve extends ValveBase {
        private static final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        final AtomicLong bytes = new AtomicLong();
        final AtomicLong requests = new AtomicLong();

        AllocationValve() {
            super(true);
        }

        void reset() {
            bytes.set(0);
            requests.set(0);
        }

        @Override
        public void invoke(Request request, Response response) throws IOException, ServletException {
            long thread = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(thread);
            getNext().invoke(request, response);
            bytes.addAndGet(threads.getThreadAllocatedBytes(thread) - before);
            requests.incrementAndGet();
        }
    }
}
