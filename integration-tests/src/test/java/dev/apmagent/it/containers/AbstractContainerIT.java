package dev.apmagent.it.containers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The servlet scenarios against a real embedded container in a forked JVM, written once; a thin subclass binds each
 * container. Per JDK, the same application JVM runs twice with the same requests: first without the agent, then with
 * the real agent jar writing to {@code output_file}; every test reads that pair (one pair per container and JDK keeps
 * the suite short). Each request carries {@code ?scenario=<name>}, which finds its transaction in the events.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractContainerIT {

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String CALLER_SPAN_ID = "b7ad6b7169203331";

    /** Every request the application gets, in this order, on both runs. */
    private static final List<Request> requests = Arrays.asList(
            new Request("sync", "/hello", "X-Name", "ann", "Authorization", "Bearer s3cr3t",
                    "Cookie", "JSESSIONID=abc123; theme=dark", "X-Tag", "a", "X-Tag", "b"),
            new Request("blocked", "/hello", "X-Block", "yes"),
            new Request("forward", "/forward", "X-Name", "bob"),
            new Request("fail", "/fail"),
            new Request("jdbc", "/users/3"),
            new Request("async", "/async"),
            new Request("traceparent", "/users/1", "traceparent", "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01"));

    private final String container;
    private final String containerClass;
    private final String namespace;
    private final Map<String, Run> runs = new HashMap<>();
    private final Map<String, Throwable> failedRuns = new HashMap<>();

    /**
     * @param container      the directory of its jars under target/containers (its launcher is in {@code <container>-classes})
     * @param containerClass its {@link ServletContainer} implementation
     * @param namespace      {@code javax} or {@code jakarta}: which twin of the test application it serves
     */
    AbstractContainerIT(String container, String containerClass, String namespace) {
        this.container = container;
        this.containerClass = containerClass;
        this.namespace = namespace;
    }

    List<Jdk> jdks() {
        return Jdk.all();
    }

    // ------------------------------------------------------------------ scenarios

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void everyRequestIsExactlyOneTransaction(Jdk jdk) throws Exception {
        Run run = run(jdk);
        List<String> scenarios = run.events.all("transaction").stream()
                .map(t -> t.path("context").path("request").path("url").path("search").asText())
                .sorted()
                .collect(Collectors.toList());
        assertThat(scenarios).as("the url.search of every transaction").containsExactlyElementsOf(
                requests.stream().map(r -> "scenario=" + r.scenario).sorted().collect(Collectors.toList()));
        for (JsonNode t : run.events.all("transaction")) {
            assertThat(t.path("type").asText()).isEqualTo("request");
            assertThat(t.path("sampled").asBoolean()).isTrue();
        }
    }

    /**
     * The body as ISO-8859-1 (every byte one char: equal strings are equal bytes, and a difference reads well), with
     * the line numbers of JBoss Threads' worker loop left out: Undertow's error page prints the stack trace, and which
     * line of {@code EnhancedQueueExecutor$ThreadBody.run} the worker ran the request from depends on whether it found
     * the task queued or was handed it (seen: 1589 against 1615 in one run). Every frame is still compared.
     */
    private static String body(Response response) {
        return new String(response.body, StandardCharsets.ISO_8859_1).replaceAll("\\(EnhancedQueueExecutor\\.java:\\d+\\)",
                "(EnhancedQueueExecutor.java)");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void responsesAndStandardOutputAreTheSameWithAndWithoutTheAgent(Jdk jdk) throws Exception {
        Run run = run(jdk);
        for (Request request : requests) {
            Response without = run.untraced.get(request.scenario);
            Response with = run.traced.get(request.scenario);
            assertThat(with.status).as(request + " status").isEqualTo(without.status);
            assertThat(body(with)).as(request + " body").isEqualTo(body(without));
            assertThat(with.headers).as(request + " headers (but Date)").isEqualTo(without.headers);
        }
        assertThat(run.stdout.get(1)).as("the application's standard output").isEqualTo(run.stdout.get(0));
        // and they are what the application means to answer (not, say, two equal 404s)
        assertThat(run.untraced.get("sync").text()).isEqualTo("hello ann");
        assertThat(run.untraced.get("sync").header("x-answer")).isEqualTo("42");
        assertThat(run.untraced.get("sync").headers.get("x-chain")).containsExactly("outer", "inner");
        assertThat(run.untraced.get("blocked").status).isEqualTo(403);
        assertThat(run.untraced.get("forward").text()).isEqualTo("hello bob");
        assertThat(run.untraced.get("fail").status).isEqualTo(500);
        assertThat(run.untraced.get("jdbc").text()).isEqualTo("user 3 is cid");
        assertThat(run.untraced.get("async").text()).isEqualTo("async user 2 is bob, on another thread: true");
        assertThat(run.untraced.get("traceparent").text()).isEqualTo("user 1 is ann");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void syncServletTransactionHasNameResultOutcomeAndHttpContext(Jdk jdk) throws Exception {
        Run run = run(jdk);
        JsonNode t = run.transaction("sync");
        assertThat(t.path("name").asText()).isEqualTo("HelloServlet#doGet");
        assertThat(t.path("result").asText()).isEqualTo("HTTP 2xx");
        assertThat(t.path("outcome").asText()).isEqualTo("success");
        assertThat(t.has("parent_id")).as("no incoming traceparent: a root transaction").isFalse();

        JsonNode request = t.path("context").path("request");
        assertThat(request.path("method").asText()).isEqualTo("GET");
        assertThat(request.path("http_version").asText()).isEqualTo("1.1");
        JsonNode url = request.path("url");
        assertThat(url.path("full").asText()).isEqualTo(run.baseUrl + "/hello?scenario=sync");
        assertThat(url.path("pathname").asText()).isEqualTo("/hello");
        assertThat(url.path("port").asInt()).isEqualTo(run.port);
        assertThat(url.path("protocol").asText()).isEqualTo("http");
        assertThat(value(request.path("headers"), "X-Name")).isEqualTo("ann");
        assertThat(values(request.path("headers"), "X-Tag")).as("a repeated request header").containsExactly("a", "b");

        JsonNode response = t.path("context").path("response");
        assertThat(response.path("status_code").asInt()).isEqualTo(200);
        assertThat(value(response.path("headers"), "X-Answer")).isEqualTo("42");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void sensitiveHeadersAndCookiesAreRedacted(Jdk jdk) throws Exception {
        JsonNode request = run(jdk).transaction("sync").path("context").path("request");
        assertThat(value(request.path("headers"), "Authorization")).isEqualTo("[REDACTED]");
        assertThat(request.path("cookies").path("JSESSIONID").asText()).isEqualTo("[REDACTED]");
        assertThat(request.path("cookies").path("theme").asText()).isEqualTo("dark");
        assertThat(request.toString()).doesNotContain("s3cr3t").doesNotContain("abc123");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void filterChainRunsInsideTheServletTransactionAndAFilterAnswerIsAnUnknownRoute(Jdk jdk) throws Exception {
        Run run = run(jdk);
        JsonNode sync = run.transaction("sync");
        assertThat(values(sync.path("context").path("response").path("headers"), "X-Chain")).containsExactly("outer", "inner");

        JsonNode blocked = run.transaction("blocked");
        assertThat(blocked.path("name").asText()).isEqualTo("GET unknown route");
        assertThat(blocked.path("result").asText()).isEqualTo("HTTP 4xx");
        assertThat(blocked.path("outcome").asText()).isEqualTo("success");
        assertThat(blocked.path("context").path("response").path("status_code").asInt()).isEqualTo(403);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void forwardKeepsOneTransactionNamedByTheFirstServlet(Jdk jdk) throws Exception {
        JsonNode t = run(jdk).transaction("forward");
        assertThat(t.path("name").asText()).isEqualTo("ForwardServlet#doGet");
        assertThat(t.path("result").asText()).isEqualTo("HTTP 2xx");
        assertThat(t.path("context").path("request").path("url").path("pathname").asText()).isEqualTo("/forward");
        assertThat(value(t.path("context").path("response").path("headers"), "X-Answer")).isEqualTo("42");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void uncaughtExceptionFailsTheTransactionAndIsReportedAsItsError(Jdk jdk) throws Exception {
        Run run = run(jdk);
        JsonNode t = run.transaction("fail");
        assertThat(t.path("name").asText()).isEqualTo("FailingServlet#doGet");
        assertThat(t.path("result").asText()).isEqualTo("HTTP 5xx");
        assertThat(t.path("outcome").asText()).isEqualTo("failure");
        assertThat(t.path("context").path("response").path("status_code").asInt()).isEqualTo(500);

        List<JsonNode> errors = run.events.all("error");
        assertThat(errors).as("one error, for the failing servlet").hasSize(1);
        JsonNode error = errors.get(0);
        assertThat(error.path("exception").path("type").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(error.path("exception").path("message").asText()).isEqualTo("failing on purpose");
        assertThat(error.path("transaction_id").asText()).isEqualTo(t.path("id").asText());
        assertThat(error.path("parent_id").asText()).isEqualTo(t.path("id").asText());
        assertThat(error.path("trace_id").asText()).isEqualTo(t.path("trace_id").asText());
        assertThat(error.path("exception").path("stacktrace").toString()).contains("FailingServlet");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void jdbcQueryIsASpanOfTheServletTransaction(Jdk jdk) throws Exception {
        Run run = run(jdk);
        JsonNode t = run.transaction("jdbc");
        assertThat(t.path("name").asText()).isEqualTo("UserServlet#doGet");
        JsonNode span = querySpan(run, t);
        assertThat(span.path("name").asText()).isEqualTo("SELECT FROM users");
        assertThat(span.path("type").asText()).isEqualTo("db");
        assertThat(span.path("subtype").asText()).isEqualTo("h2");
        assertThat(span.path("transaction_id").asText()).isEqualTo(t.path("id").asText());
        assertThat(span.path("trace_id").asText()).isEqualTo(t.path("trace_id").asText());
        assertThat(span.path("context").path("db").path("statement").asText()).isEqualTo("SELECT name FROM users WHERE id = ?");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void asyncTaskQueryBelongsToTheAsyncRequestTransaction(Jdk jdk) throws Exception {
        Run run = run(jdk);
        JsonNode t = run.transaction("async");
        assertThat(t.path("name").asText()).isEqualTo("AsyncServlet#doGet");
        assertThat(t.path("result").asText()).isEqualTo("HTTP 2xx");
        assertThat(t.path("outcome").asText()).isEqualTo("success");
        assertThat(t.path("context").path("response").path("status_code").asInt()).isEqualTo(200);
        // the query ran on the AsyncContext.start thread (the body says it was not the request thread)
        assertThat(run.traced.get("async").text()).endsWith("on another thread: true");
        JsonNode span = querySpan(run, t);
        assertThat(span.path("name").asText()).isEqualTo("SELECT FROM users");
        assertThat(span.path("transaction_id").asText()).isEqualTo(t.path("id").asText());
        assertThat(span.path("trace_id").asText()).isEqualTo(t.path("trace_id").asText());
        assertThat(span.path("timestamp").asLong()).isGreaterThanOrEqualTo(t.path("timestamp").asLong());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void incomingTraceparentIsTheParentOfTheTransactionAndItsSpans(Jdk jdk) throws Exception {
        Run run = run(jdk);
        JsonNode t = run.transaction("traceparent");
        assertThat(t.path("name").asText()).isEqualTo("UserServlet#doGet");
        assertThat(t.path("trace_id").asText()).isEqualTo(TRACE_ID);
        assertThat(t.path("parent_id").asText()).isEqualTo(CALLER_SPAN_ID);
        assertThat(t.path("id").asText()).isNotEqualTo(CALLER_SPAN_ID).hasSize(16);
        JsonNode span = querySpan(run, t);
        assertThat(span.path("trace_id").asText()).isEqualTo(TRACE_ID);
        assertThat(span.path("transaction_id").asText()).isEqualTo(t.path("id").asText());
        assertThat(span.path("id").asText()).isNotIn(CALLER_SPAN_ID, t.path("id").asText());
        // the other requests started traces of their own
        assertThat(run.transaction("jdbc").path("trace_id").asText()).isNotEqualTo(TRACE_ID);
    }

    // ------------------------------------------------------------------ the runs

    /** The pair of runs on this JDK, made by the first test that needs it (a failed pair fails every test at once). */
    private synchronized Run run(Jdk jdk) throws Exception {
        String key = jdk.toString();
        if (failedRuns.containsKey(key)) {
            throw new AssertionError("the runs on " + key + " failed", failedRuns.get(key));
        }
        Run run = runs.get(key);
        if (run == null) {
            try {
                run = new Run(jdk);
            } catch (Exception | AssertionError e) {
                failedRuns.put(key, e);
                throw e;
            }
            runs.put(key, run);
        }
        return run;
    }

    @AfterAll
    void deleteRunDirectories() throws IOException {
        for (Run run : runs.values()) {
            try (Stream<Path> files = Files.walk(run.dir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private final class Run {
        final Path dir;
        final Map<String, Response> untraced;
        final Map<String, Response> traced;
        final List<String> stdout = new ArrayList<>(); // untraced, then traced
        final EventFile events;
        final int port;
        String baseUrl;

        Run(Jdk jdk) throws Exception {
            dir = Files.createTempDirectory("container-it-" + container + "-" + jdk);
            // both runs on the same port: error pages may show the request's full URL
            try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = free.getLocalPort();
            }
            untraced = serve(jdk, null);
            Path eventFile = dir.resolve("events.ndjson");
            traced = serve(jdk, "output_file=" + eventFile + ",metrics_interval=0,service_name=" + container
                    + ",log_file=" + dir.resolve("agent.log"));
            events = EventFile.readAndValidate(eventFile);
        }

        /** Starts the application (with the agent when options are given), sends every request, stops it. */
        private Map<String, Response> serve(Jdk jdk, String agentOptions) throws Exception {
            Path containers = Paths.get(required("apm.containers.dir"));
            ForkedJvm jvm = ForkedJvm.on(jdk)
                    .classPath(containers.resolve(container + "-classes"))
                    .classPath(containers.resolve(container).resolve("*"))
                    .classPath(containers.resolve("common").resolve("*"))
                    .main(ContainerApp.class, containerClass, namespace, Integer.toString(port));
            if (agentOptions != null) {
                jvm.withAgent(agentOptions);
            }
            Map<String, Response> responses = new LinkedHashMap<>();
            try (ForkedJvm.Running app = jvm.start()) {
                String printed = app.awaitStdout("listening on ", 60);
                baseUrl = printed.substring(printed.indexOf("listening on ") + "listening on ".length()).trim().split("\\s")[0];
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10)).build();
                for (Request request : requests) {
                    responses.put(request.scenario, request.send(client, baseUrl));
                }
                assertThat(app.stop()).as("exit code of " + app + agentLog()).isZero();
                assertThat(app.stdout()).as(app.toString()).contains("stopped");
                stdout.add(app.stdout());
            }
            return responses;
        }

        private String agentLog() throws IOException {
            Path log = dir.resolve("agent.log");
            return Files.exists(log) ? "\n--- agent log\n" + Files.readString(log) : "";
        }

        JsonNode transaction(String scenario) {
            List<JsonNode> found = new ArrayList<>();
            for (JsonNode t : events.all("transaction")) {
                if (("scenario=" + scenario).equals(t.path("context").path("request").path("url").path("search").asText())) {
                    found.add(t);
                }
            }
            assertThat(found).as("the transactions of scenario " + scenario + " among " + events.all("transaction")).hasSize(1);
            return found.get(0);
        }
    }

    /** The query span of a transaction whose only spans are the H2 connect and that query. */
    private static JsonNode querySpan(Run run, JsonNode transaction) {
        List<JsonNode> children = run.events.childrenOf(transaction.path("id").asText());
        assertThat(children).as("the spans whose parent is " + transaction.path("name") + " among " + run.events.all("span"))
                .extracting(s -> s.path("name").asText())
                .containsExactlyInAnyOrder("Driver.connect", "SELECT FROM users");
        for (JsonNode child : children) {
            assertThat(child.path("transaction_id").asText()).isEqualTo(transaction.path("id").asText());
            assertThat(child.path("trace_id").asText()).isEqualTo(transaction.path("trace_id").asText());
        }
        return children.stream().filter(s -> s.path("action").asText().equals("query")).findFirst().orElseThrow();
    }

    /** A captured header's value (names are case-insensitive; a repeated header is an array: its first value). */
    private static String value(JsonNode headers, String name) {
        List<String> values = values(headers, name);
        return values.isEmpty() ? null : values.get(0);
    }

    private static List<String> values(JsonNode headers, String name) {
        List<String> out = new ArrayList<>();
        headers.fields().forEachRemaining(e -> {
            if (e.getKey().equalsIgnoreCase(name)) {
                if (e.getValue().isArray()) {
                    e.getValue().forEach(v -> out.add(v.asText()));
                } else {
                    out.add(e.getValue().asText());
                }
            }
        });
        return out;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("system property " + property + " is not set; run the tests through Maven");
        }
        return value;
    }

    /** One request of the scenario list: {@code GET <path>?scenario=<scenario>} with headers. */
    private static final class Request {
        final String scenario;
        final String path;
        final String[] headers;

        Request(String scenario, String path, String... headers) {
            this.scenario = scenario;
            this.path = path;
            this.headers = headers;
        }

        Response send(HttpClient client, String baseUrl) throws IOException, InterruptedException {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path + "?scenario=" + scenario))
                    .timeout(Duration.ofSeconds(30));
            for (int i = 0; i < headers.length; i += 2) {
                builder.header(headers[i], headers[i + 1]);
            }
            HttpResponse<byte[]> response = client.send(builder.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            headers.putAll(response.headers().map());
            headers.remove("date");
            return new Response(response.statusCode(), headers, response.body());
        }

        @Override
        public String toString() {
            return "GET " + path + "?scenario=" + scenario;
        }
    }

    private static final class Response {
        final int status;
        final Map<String, List<String>> headers;
        final byte[] body;

        Response(int status, Map<String, List<String>> headers, byte[] body) {
            this.status = status;
            this.headers = headers;
            this.body = body;
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            List<String> values = headers.get(name);
            return values == null ? null : values.get(0);
        }
    }
}
