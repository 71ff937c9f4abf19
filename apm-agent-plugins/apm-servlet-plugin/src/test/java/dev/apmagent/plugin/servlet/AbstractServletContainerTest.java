package dev.apmagent.plugin.servlet;

import dev.apmagent.config.Parsers;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.KeyValues;
import dev.apmagent.trace.ListReporter;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The servlet scenarios, written once and run against each container by a thin subclass. The real instrumentation
 * is installed into this JVM (classes already loaded are retransformed, as on attach); requests go over HTTP.
 */
public abstract class AbstractServletContainerTest {

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String PARENT_ID = "b7ad6b7169203331";

    private static PluginAgent agent;

    protected ListReporter reporter;
    private int port;
    private boolean running;

    /** Starts the container with the test application's servlets and filter; returns its port. */
    protected abstract int startContainer(Map<String, Class<?>> servlets, Class<?> filter) throws Exception;

    protected abstract void stopContainer() throws Exception;

    /** The test application of this container's servlet namespace. */
    protected abstract Map<String, Class<?>> servlets();

    protected abstract Class<?> filter();

    @BeforeAll
    static void install() {
        installAgent();
    }

    /** Installs the servlet instrumentation into this JVM once, for every test class of the module. */
    static synchronized PluginAgent installAgent() {
        if (agent == null) {
            agent = PluginAgent.install(new ServletPlugin());
        }
        return agent;
    }

    @BeforeEach
    final void start() throws Exception {
        useConfig(new HashMap<String, Object>());
        port = startContainer(servlets(), filter());
        running = true;
    }

    /**
     * Stops the container (which waits for requests in flight), then checks that every pooled event came back exactly
     * once: a transaction left active on a container thread, or never ended, fails here; and that no exception of the
     * plugin's own was caught on the way.
     */
    @AfterEach
    final void stop() throws Exception {
        stopServer();
        agent.stopTracer();
        assertThat(PluginHealth.of("servlet").failures()).as("failures inside the plugin").isZero();
    }

    private void stopServer() throws Exception {
        if (running) {
            running = false;
            stopContainer();
        }
    }

    protected void useConfig(Map<String, Object> options) {
        agent.stopTracer();
        agent.startTracer(options);
        reporter = agent.reporter();
    }

    @Test
    void syncServletGivesOneTransactionNamedByTheServlet() throws Exception {
        Response response = get("/hello?q=1", "X-Name", "ann", "Cookie", "JSESSIONID=abc123; theme=dark", "Authorization", "Bearer s3cr3t",
                "X-Tag", "a", "X-Tag", "b");

        assertThat(response.status).isEqualTo(200);
        assertThat(response.body).isEqualTo("hello ann");
        Transaction t = awaitTransaction();
        assertThat(t.name().toString()).isEqualTo("HelloServlet#doGet");
        assertThat(t.type()).isEqualTo("request");
        assertThat(t.result()).isEqualTo("HTTP 2xx");
        assertThat(t.outcome()).isEqualTo(Outcome.SUCCESS);
        dev.apmagent.trace.Request request = t.context().request();
        assertThat(request.method().toString()).isEqualTo("GET");
        assertThat(request.url().pathname().toString()).isEqualTo("/hello");
        assertThat(request.url().search().toString()).isEqualTo("q=1");
        assertThat(request.url().port()).isEqualTo(port);
        assertThat(request.httpVersion().toString()).isEqualTo("1.1");
        assertThat(value(request.headers(), "X-Name")).isEqualTo("ann");
        assertThat(value(request.headers(), "Authorization")).isEqualTo("[REDACTED]");
        assertThat(value(request.cookies(), "JSESSIONID")).isEqualTo("[REDACTED]");
        assertThat(value(request.cookies(), "theme")).isEqualTo("dark");
        assertThat(t.context().response().statusCode()).isEqualTo(200);
        assertThat(value(t.context().response().headers(), "X-Answer")).isEqualTo("42");
        // every value of a repeated header, once (Tomcat lists a repeated response header's name once per value)
        assertThat(values(request.headers(), "X-Tag")).containsExactly("a", "b");
        assertThat(values(t.context().response().headers(), "X-Tag")).containsExactly("a", "b");
    }

    @Test
    void incomingTraceparentContinuesTheTrace() throws Exception {
        get("/hello", "traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-01", "tracestate", "es=s:0.5,other=x");

        Transaction t = awaitTransaction();
        assertThat(hex(t.traceContext().traceIdHigh()) + hex(t.traceContext().traceIdLow())).isEqualTo(TRACE_ID);
        assertThat(hex(t.traceContext().parentId())).isEqualTo(PARENT_ID);
        assertThat(t.isSampled()).isTrue();
        assertThat(t.traceContext().sampleRate()).isEqualTo(0.5);
    }

    @Test
    void unsampledCallerMeansUnsampledTransactionWithoutContext() throws Exception {
        get("/hello", "traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-00");

        Transaction t = awaitTransaction();
        assertThat(t.isSampled()).isFalse();
        assertThat(t.context().hasContent()).isFalse();
        assertThat(t.result()).isEqualTo("HTTP 2xx");
    }

    @Test
    void malformedTraceparentStartsANewTrace() throws Exception {
        get("/hello", "traceparent", "00-" + TRACE_ID.toUpperCase() + "-" + PARENT_ID + "-01");

        Transaction t = awaitTransaction();
        assertThat(hex(t.traceContext().traceIdHigh()) + hex(t.traceContext().traceIdLow())).isNotEqualTo(TRACE_ID);
        assertThat(t.traceContext().parentId()).isZero();
    }

    @Test
    void uncaughtExceptionFailsTheTransactionAndIsCaptured() throws Exception {
        Response response = get("/fail");

        assertThat(response.status).isEqualTo(500);
        Transaction t = awaitTransaction();
        assertThat(t.name().toString()).isEqualTo("FailingServlet#doGet");
        assertThat(t.result()).isEqualTo("HTTP 5xx");
        assertThat(t.outcome()).isEqualTo(Outcome.FAILURE);
        ErrorEvent error = awaitError();
        assertThat(error.exception()).isInstanceOf(IllegalStateException.class).hasMessage("failing on purpose");
        assertThat(error.transactionId()).isEqualTo(t.traceContext().id());
    }

    @Test
    void statusFiveHundredWithoutExceptionIsAFailure() throws Exception {
        assertThat(get("/unavailable").status).isEqualTo(503);
        Transaction t = awaitTransaction();
        assertThat(t.result()).isEqualTo("HTTP 5xx");
        assertThat(t.outcome()).isEqualTo(Outcome.FAILURE);
    }

    @Test
    void forwardKeepsOneTransactionNamedByTheFirstServlet() throws Exception {
        Response response = get("/forward", "X-Name", "bob");

        assertThat(response.body).isEqualTo("hello bob");
        assertThat(response.header("X-Filtered")).isEqualTo("yes");
        Transaction t = awaitTransaction();
        assertThat(t.name().toString()).isEqualTo("ForwardServlet#doGet");
        stopServer();
        assertThat(reporter.transactions()).hasSize(1);
    }

    @Test
    void asyncRequestEndsWhenTheResponseCompletesAndOwnsSpansOfTheAsyncThread() throws Exception {
        Response response = get("/async");

        assertThat(response.body).isEqualTo("async done");
        Transaction t = awaitTransaction();
        assertThat(t.name().toString()).isEqualTo("AsyncServlet#doGet");
        assertThat(t.result()).isEqualTo("HTTP 2xx");
        List<Span> spans = reporter.spans();
        assertThat(spans).hasSize(1);
        assertThat(spans.get(0).name().toString()).isEqualTo("async work");
        assertThat(spans.get(0).traceContext().parentId()).isEqualTo(t.traceContext().id());
    }

    @Test
    void asyncTimeoutEndsWithTheStatusTheClientGot() throws Exception {
        Response response = get("/async-timeout");

        assertThat(response.status).isEqualTo(500);
        Transaction t = awaitTransaction();
        assertThat(t.name().toString()).isEqualTo("AsyncTimeoutServlet#doGet");
        assertThat(t.result()).isEqualTo("HTTP 5xx");
        assertThat(t.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(t.context().response().statusCode()).isEqualTo(500);
    }

    @Test
    void exceptionInAFilterFailsTheTransactionItStarted() throws Exception {
        Response response = get("/hello", "X-Fail-In-Filter", "yes");

        assertThat(response.status).isEqualTo(500);
        Transaction t = awaitTransaction();
        assertThat(t.name().toString()).isEqualTo("GET unknown route");
        assertThat(t.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(awaitError().exception()).isInstanceOf(IllegalArgumentException.class).hasMessage("failing in the filter");
    }

    @Test
    void ignoredUrlsAreNotTraced() throws Exception {
        assertThat(get("/static/app.css").status).isEqualTo(200);
        assertThat(get("/hello").status).isEqualTo(200);

        awaitTransaction();
        stopServer();
        assertThat(reporter.transactions()).hasSize(1);
        assertThat(reporter.transactions().get(0).name().toString()).isEqualTo("HelloServlet#doGet");
    }

    @Test
    void pathNamesWithUrlGroups() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put("use_path_as_transaction_name", true);
        options.put("url_groups", Parsers.WILDCARD_LIST.parse("/users/*"));
        useConfig(options);

        get("/users/12345");
        assertThat(awaitTransaction().name().toString()).isEqualTo("GET /users/*");
    }

    @Test
    void secretsInTheQueryAndInPathParametersAreRedactedNamesKept() throws Exception {
        get("/users/1;jsessionid=S3SS10N;v=2?password=hunter2&id=1&pass%77ord=p2&token&api_key=");

        Transaction t = awaitTransaction();
        dev.apmagent.trace.Url url = t.context().request().url();
        assertThat(url.search().toString()).isEqualTo("password=[REDACTED]&id=1&pass%77ord=[REDACTED]&token&api_key=[REDACTED]");
        assertThat(url.pathname().toString()).isEqualTo("/users/1;jsessionid=[REDACTED];v=2");
        assertThat(url.full().toString()).isEqualTo("http://127.0.0.1:" + port
                + "/users/1;jsessionid=[REDACTED];v=2?password=[REDACTED]&id=1&pass%77ord=[REDACTED]&token&api_key=[REDACTED]");
        assertThat(t.name().toString()).isEqualTo("HelloServlet#doGet");
    }

    @Test
    void madeUpMethodsShareOneTransactionNameAndKeepTheMethodInTheContext() throws Exception {
        String huge = repeat('X', 5000);
        String[] methods = {"AMZXQZEQ", "BREW", "get", "PROPFIND", huge};
        for (String method : methods) {
            assertThat(rawStatus(method, "/hello")).as(method.length() > 20 ? "a 5000-character method" : method).isGreaterThanOrEqualTo(400);
        }
        List<Transaction> all = awaitTransactions(methods.length);
        for (int i = 0; i < methods.length; i++) {
            Transaction t = all.get(i);
            assertThat(t.name().toString()).isEqualTo("HelloServlet#doOther");
            String expected = methods[i].length() > dev.apmagent.trace.Request.MAX_METHOD_LENGTH
                    ? methods[i].substring(0, dev.apmagent.trace.Request.MAX_METHOD_LENGTH) : methods[i];
            assertThat(t.context().request().method().toString()).isEqualTo(expected);
        }
    }

    @Test
    void pathNamesBucketMadeUpMethodsAndLeaveOutPathParameters() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put("use_path_as_transaction_name", true);
        options.put("url_groups", Parsers.WILDCARD_LIST.parse("/users/*"));
        useConfig(options);

        get("/hello;jsessionid=S3SS10N");
        assertThat(awaitTransactions(1).get(0).name().toString()).isEqualTo("GET /hello");
        get("/users/12345;jsessionid=S3SS10N");
        assertThat(awaitTransactions(2).get(1).name().toString()).isEqualTo("GET /users/*");
        rawStatus("AMZXQZEQ", "/hello;a=b");
        assertThat(awaitTransactions(3).get(2).name().toString()).isEqualTo("OTHER /hello");
    }

    @Test
    void withoutCapturedHeadersNoHeadersAreKept() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put("capture_headers", false);
        useConfig(options);

        get("/hello", "X-Name", "ann");
        Transaction t = awaitTransaction();
        assertThat(t.context().request().headers().size()).isZero();
        assertThat(t.context().request().cookies().size()).isZero();
        assertThat(t.context().response().headers().size()).isZero();
        assertThat(t.context().request().method().toString()).isEqualTo("GET");
    }

    @Test
    void responsesAreTheSameWithAndWithoutTracing() throws Exception {
        Response traced = get("/hello", "X-Name", "same");
        awaitTransaction();
        GlobalTracer.set(null, null);
        Response untraced = get("/hello", "X-Name", "same");

        assertThat(traced.status).isEqualTo(untraced.status);
        assertThat(traced.body).isEqualTo(untraced.body);
        assertThat(traced.header("X-Answer")).isEqualTo(untraced.header("X-Answer"));
        assertThat(traced.header("Content-Type")).isEqualTo(untraced.header("Content-Type"));
    }

    // ------------------------------------------------------------------ helpers

    private Transaction awaitTransaction() throws InterruptedException {
        for (int i = 0; i < 500 && reporter.transactions().isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertThat(reporter.transactions()).as("a transaction was reported").isNotEmpty();
        return reporter.transactions().get(0);
    }

    private List<Transaction> awaitTransactions(int count) throws InterruptedException {
        for (int i = 0; i < 500 && reporter.transactions().size() < count; i++) {
            Thread.sleep(10);
        }
        assertThat(reporter.transactions()).as("transactions reported").hasSize(count);
        return reporter.transactions();
    }

    /** A request with any method (HttpURLConnection accepts only the standard ones); returns the status. */
    private int rawStatus(String method, String path) throws IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(reply);
            String head = reply.toString(StandardCharsets.ISO_8859_1);
            return Integer.parseInt(head.substring(9, 12));
        }
    }

    private static String repeat(char c, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(c);
        }
        return sb.toString();
    }

    private ErrorEvent awaitError() throws InterruptedException {
        for (int i = 0; i < 500 && reporter.errors().isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertThat(reporter.errors()).as("an error was reported").isNotEmpty();
        return reporter.errors().get(0);
    }

    private static String value(KeyValues values, String key) {
        for (int i = 0; i < values.size(); i++) {
            if (values.key(i).equalsIgnoreCase(key)) {
                return values.value(i).toString();
            }
        }
        return null;
    }

    private static List<String> values(KeyValues values, String key) {
        List<String> out = new ArrayList<String>();
        for (int i = 0; i < values.size(); i++) {
            if (values.key(i).equalsIgnoreCase(key)) {
                out.add(values.value(i).toString());
            }
        }
        return out;
    }

    private static String hex(long value) {
        String s = Long.toHexString(value);
        return "0000000000000000".substring(s.length()) + s;
    }

    private Response get(String path, String... headers) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL("http://127.0.0.1:" + port + path).openConnection();
        for (int i = 0; i < headers.length; i += 2) {
            connection.addRequestProperty(headers[i], headers[i + 1]);
        }
        int status = connection.getResponseCode();
        InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (in != null) {
            in.transferTo(out);
            in.close();
        }
        return new Response(status, status >= 400 ? "" : out.toString(StandardCharsets.UTF_8), connection.getHeaderFields());
    }

    static final class Response {
        final int status;
        final String body;
        final Map<String, List<String>> headers;

        Response(int status, String body, Map<String, List<String>> headers) {
            this.status = status;
            this.body = body;
            this.headers = headers;
        }

        String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (name.equalsIgnoreCase(e.getKey())) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }
}
