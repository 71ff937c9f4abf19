package dev.apmagent.it.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import testapp.okhttp.OkHttpApp;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * OkHttp 4 under the real agent jar (JDK 17 and JDK 25), calling the embedded Tomcat it runs in, which is traced too
 * ({@link OkHttpApp}): for each case, the exit span in the calling request's transaction, the downstream transaction
 * in the same trace with the exit span as its parent, errors, and enqueue. One fork per JDK serves every case; every
 * event validates against the intake v2 schema. And, with nothing active, nothing recorded and nothing allocated
 * (compared with a fork where the instrumentation is disabled).
 */
class OkHttpClientIT {

    static final String OWN_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    static final String[] CASES = {"/async-throws", "/ok", "/404", "/500", "/refused", "/timeout", "/unread", "/own-traceparent",
            "/retry", "/async"};

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void everyCaseIsOneExitSpanAndTheDownstreamTransactionContinuesIt(Jdk jdk, @TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.ndjson");
        Map<String, String> answers = new LinkedHashMap<>();
        String base;
        try (App app = App.start(jdk, "output_file=" + events + ",log_file=" + dir.resolve("agent.log") + ",metrics_interval=0")) {
            base = app.base;
            for (String c : CASES) {
                answers.put(c, get(app.base + "/call" + c));
            }
            assertThat(app.jvm.stop()).as(app.jvm.toString()).isZero();
        }
        assertThat(answers).containsExactly(
                Map.entry("/async-throws", "503 status, then 200 hello"),
                Map.entry("/ok", "200 hello"),
                Map.entry("/404", "404 status"),
                Map.entry("/500", "500 status"),
                Map.entry("/refused", "threw java.net.ConnectException"),
                Map.entry("/timeout", "threw java.net.SocketTimeoutException"),
                Map.entry("/unread", "closed 200"),
                Map.entry("/own-traceparent", "200 hello"),
                Map.entry("/retry", "200 hello"),
                Map.entry("/async", "503 status, then 200 hello"));

        EventFile file = EventFile.readAndValidate(events);
        Trace trace = new Trace(file, base.substring("http://".length()));
        SoftAssertions soft = new SoftAssertions();

        JsonNode ok = trace.onlyExitSpan("/call/ok");
        trace.assertSpan(soft, ok, "/downstream/ok?q=1", 200, "success");
        trace.assertContinuedBy(soft, ok, 1);

        trace.assertSpan(soft, trace.onlyExitSpan("/call/404"), "/downstream/status/404", 404, "failure");
        trace.assertContinuedBy(soft, trace.onlyExitSpan("/call/404"), 1);
        trace.assertSpan(soft, trace.onlyExitSpan("/call/500"), "/downstream/status/500", 500, "failure");
        trace.assertContinuedBy(soft, trace.onlyExitSpan("/call/500"), 1);

        JsonNode refused = trace.onlyExitSpan("/call/refused");
        soft.assertThat(refused.path("outcome").asText()).isEqualTo("failure");
        soft.assertThat(trace.errorTypesOf(refused)).containsExactly("java.net.ConnectException");
        JsonNode timeout = trace.onlyExitSpan("/call/timeout");
        trace.assertSpan(soft, timeout, "/downstream/slow", -1, "failure");
        soft.assertThat(trace.errorTypesOf(timeout)).containsExactly("java.net.SocketTimeoutException");

        trace.assertSpan(soft, trace.onlyExitSpan("/call/unread"), "/downstream/ok", 200, "success");

        trace.assertSpan(soft, trace.onlyExitSpan("/call/own-traceparent"), "/downstream/ok", 200, "success");
        soft.assertThat(trace.transactionsWithTraceId(OWN_TRACE_ID)).as("the application's traceparent reached the server")
                .extracting(t -> t.path("parent_id").asText()).containsExactly("b7ad6b7169203331");

        JsonNode retry = trace.onlyExitSpan("/call/retry");
        trace.assertSpan(soft, retry, "/downstream/ok", 200, "success");
        trace.assertContinuedBy(soft, retry, 2); // the interceptor's two attempts, one span

        for (String async : new String[]{"/call/async", "/call/async-throws"}) {
            // the enqueued call, and the call its callback makes: both children of the caller's transaction
            List<JsonNode> spans = trace.exitSpans(async);
            soft.assertThat(spans).as(async).hasSize(2);
            for (JsonNode span : spans) {
                boolean enqueued = span.path("context").path("http").path("response").path("status_code").asInt() == 503;
                trace.assertSpan(soft, span, enqueued ? "/downstream/status/503" : "/downstream/ok?from=callback",
                        enqueued ? 503 : 200, enqueued ? "failure" : "success");
                trace.assertContinuedBy(soft, span, 1);
            }
        }
        soft.assertThat(trace.spansUnderExitSpans()).as("no exit span nested in another").isEmpty();
        soft.assertAll();
    }

    /**
     * Nothing active (a thread of the application's own): no span, no header (the downstream transactions start their
     * own traces), and no byte allocated on the calling thread beyond what the same calls allocate with the
     * instrumentation disabled.
     */
    @Test
    void nothingActiveRecordsNothingAndAllocatesNothing(@TempDir Path dir) throws Exception {
        Jdk jdk = Jdk.all().get(0);
        long enabled = idleBytesPerCall(jdk, dir.resolve("enabled"), "");
        long disabled = idleBytesPerCall(jdk, dir.resolve("disabled"), ",disable_instrumentations=okhttp");
        System.out.println("OkHttpClientIT on " + jdk + ": " + enabled + " B per untraced call with the instrumentation, " + disabled + " B without");
        // OkHttp's own allocation per call (about 7.4 KB) varies by some 20 bytes between forks; a traced call's
        // request copy, holder and headers would add several hundred
        assertThat(enabled).as("bytes per call, instrumentation enabled vs disabled (%d)", disabled).isBetween(disabled - 64, disabled + 64);
    }

    private static long idleBytesPerCall(Jdk jdk, Path dir, String extraOptions) throws Exception {
        Files.createDirectories(dir);
        Path events = dir.resolve("events.ndjson");
        String answer;
        try (App app = App.start(jdk, "output_file=" + events + ",metrics_interval=0,transaction_ignore_urls=/downstream/idle" + extraOptions)) {
            answer = get(app.base + "/idle");
            assertThat(app.jvm.stop()).as(app.jvm.toString()).isZero();
        }
        assertThat(answer).as("what the idle thread saw").matches("\\d+ bytes per call, 0 with traceparent");
        assertThat(EventFile.readAndValidate(events).all("span")).isEmpty();
        return Long.parseLong(answer.substring(0, answer.indexOf(' ')));
    }

    static String get(String url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        connection.setReadTimeout(60_000);
        int status = connection.getResponseCode();
        try (InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The OkHttp application on a forked JVM with the agent. */
    static final class App implements AutoCloseable {
        final ForkedJvm.Running jvm;
        final String base;

        private App(ForkedJvm.Running jvm, String base) {
            this.jvm = jvm;
            this.base = base;
        }

        static App start(Jdk jdk, String agentOptions) throws IOException, InterruptedException {
            ForkedJvm fork = ForkedJvm.on(jdk).withAgent(agentOptions).main(OkHttpApp.class);
            Path containers = Paths.get(System.getProperty("apm.containers.dir"));
            try (Stream<Path> tomcat = Files.list(containers.resolve("tomcat10"));
                 Stream<Path> okhttp = Files.list(Paths.get(System.getProperty("apm.okhttp.libs")))) {
                Stream.concat(tomcat, okhttp).sorted().forEach(fork::classPath);
            }
            ForkedJvm.Running running = fork.start();
            try {
                String printed = running.awaitStdout("okhttp app listening on ", 60);
                String base = printed.substring(printed.indexOf("okhttp app listening on ") + "okhttp app listening on ".length()).trim();
                return new App(running, base.split("\\s")[0]);
            } catch (IOException | InterruptedException | RuntimeException | Error e) {
                running.close();
                throw e;
            }
        }

        @Override
        public void close() throws IOException, InterruptedException {
            jvm.close();
        }
    }

    /** The events of one run, looked up by the calling request's path. */
    static final class Trace {
        private final EventFile file;
        private final String hostPort;

        Trace(EventFile file, String hostPort) {
            this.file = file;
            this.hostPort = hostPort;
        }

        JsonNode transaction(String pathname) {
            List<JsonNode> found = transactionsAt(pathname);
            assertThat(found).as("transactions at %s", pathname).hasSize(1);
            return found.get(0);
        }

        List<JsonNode> transactionsAt(String pathname) {
            return file.all("transaction").stream()
                    .filter(t -> t.path("context").path("request").path("url").path("pathname").asText().equals(pathname))
                    .collect(Collectors.toList());
        }

        List<JsonNode> exitSpans(String callPath) {
            JsonNode caller = transaction(callPath);
            List<JsonNode> spans = file.childrenOf(caller.path("id").asText());
            for (JsonNode span : spans) {
                assertThat(span.path("trace_id").asText()).isEqualTo(caller.path("trace_id").asText());
            }
            return spans;
        }

        JsonNode onlyExitSpan(String callPath) {
            List<JsonNode> spans = exitSpans(callPath);
            assertThat(spans).as("spans of %s", callPath).hasSize(1);
            return spans.get(0);
        }

        void assertSpan(SoftAssertions soft, JsonNode span, String pathAndQuery, int status, String outcome) {
            String host = hostPort.substring(0, hostPort.indexOf(':'));
            int port = Integer.parseInt(hostPort.substring(hostPort.indexOf(':') + 1));
            soft.assertThat(span.path("name").asText()).isEqualTo("GET " + host);
            soft.assertThat(span.path("type").asText()).isEqualTo("external");
            soft.assertThat(span.path("subtype").asText()).isEqualTo("http");
            soft.assertThat(span.path("outcome").asText()).as("outcome of %s", pathAndQuery).isEqualTo(outcome);
            JsonNode context = span.path("context");
            soft.assertThat(context.path("http").path("method").asText()).isEqualTo("GET");
            soft.assertThat(context.path("http").path("url").asText()).isEqualTo("http://" + hostPort + pathAndQuery);
            if (status > 0) {
                soft.assertThat(context.path("http").path("response").path("status_code").asInt()).isEqualTo(status);
            } else {
                soft.assertThat(context.path("http").has("response")).isFalse();
            }
            soft.assertThat(context.path("destination").path("address").asText()).isEqualTo(host);
            soft.assertThat(context.path("destination").path("port").asInt()).isEqualTo(port);
            soft.assertThat(context.path("service").path("target").path("type").asText()).isEqualTo("http");
            soft.assertThat(context.path("service").path("target").path("name").asText()).isEqualTo(hostPort);
        }

        /** {@code count} downstream transactions have this span as their parent, in its trace. */
        void assertContinuedBy(SoftAssertions soft, JsonNode span, int count) {
            List<JsonNode> downstream = file.all("transaction").stream()
                    .filter(t -> t.path("parent_id").asText().equals(span.path("id").asText()))
                    .collect(Collectors.toList());
            soft.assertThat(downstream).as("downstream transactions of %s", span.path("context").path("http").path("url").asText())
                    .hasSize(count)
                    .allSatisfy(t -> assertThat(t.path("trace_id").asText()).isEqualTo(span.path("trace_id").asText()));
        }

        List<JsonNode> transactionsWithTraceId(String traceId) {
            return file.all("transaction").stream().filter(t -> t.path("trace_id").asText().equals(traceId)).collect(Collectors.toList());
        }

        List<String> errorTypesOf(JsonNode span) {
            List<String> types = new ArrayList<>();
            for (JsonNode error : file.all("error")) {
                if (error.path("parent_id").asText().equals(span.path("id").asText())) {
                    types.add(error.path("exception").path("type").asText());
                }
            }
            return types;
        }

        List<String> spansUnderExitSpans() {
            List<String> exitIds = file.all("span").stream().map(s -> s.path("id").asText()).collect(Collectors.toList());
            return file.all("span").stream().filter(s -> exitIds.contains(s.path("parent_id").asText()))
                    .map(s -> s.path("name").asText()).collect(Collectors.toList());
        }
    }
}
