package dev.apmagent.it.attach;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent attached to a running servlet container with JDBC (the demo, started without an agent): requests before
 * the attach are not traced, the next ones are, with their JDBC spans, also those run on thread pools, fork-join pools
 * and virtual threads that were started before the attach; on JDK 17 and JDK 25, by pid and by main class.
 */
class AttachTracingIT {

    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+) pid (\\d+)");

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void requestsAfterAttachByPidAreTracedWithTheirJdbcSpans(Jdk jdk, @TempDir Path dir) throws Exception {
        attachAndTrace(jdk, dir, false);
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void requestsAfterAttachByMainClassAreTraced(Jdk jdk, @TempDir Path dir) throws Exception {
        attachAndTrace(jdk, dir, true);
    }

    private void attachAndTrace(Jdk jdk, Path dir, boolean byMainClass) throws Exception {
        Path events = dir.resolve("events.ndjson");
        // a copy under a unique name, so that --include-main selects this JVM and no other demo that may be running
        String uniqueName = "attach-demo-" + System.nanoTime() + ".jar";
        Path demoJar = Files.copy(Paths.get(System.getProperty("user.dir")).resolve("../target/apm-agent-demo.jar").normalize(),
                dir.resolve(uniqueName));
        try (ForkedJvm.Running demo = ForkedJvm.on(jdk).jar(demoJar, "serve").start()) {
            Matcher listening = LISTENING.matcher(demo.awaitStdout("listening on", 60));
            assertThat(listening.find()).as(demo.toString()).isTrue();
            String base = listening.group(1);
            String pid = listening.group(2);

            assertThat(get(base + "/users/1")).isEqualTo(200); // before the attach: not traced
            assertThat(get(base + "/report")).isEqualTo(200); // starts the report's pool before the attach
            assertThat(get(base + "/handoffs")).isEqualTo(200); // and the hand-offs' pools, fork-join pools, common pool

            ForkedJvm.Result attach = byMainClass
                    ? AttachRun.attach(jdk, "--include-main", Pattern.quote(uniqueName), "--config", "output_file=" + events,
                    "--config", "metrics_interval=0", "--config", "service_name=attached-demo")
                    : AttachRun.attach(jdk, "--pid", pid, "--config", "output_file=" + events, "--config", "metrics_interval=0",
                    "--config", "service_name=attached-demo");
            assertThat(attach.exitCode).as(attach.toString()).isZero();

            assertThat(get(base + "/users/2")).isEqualTo(200);
            assertThat(get(base + "/orders")).isEqualTo(200);
            assertThat(get(base + "/report")).isEqualTo(200);
            assertThat(get(base + "/handoffs")).isEqualTo(200);
            assertThat(demo.stop()).as(demo.toString()).isZero();
        }

        EventFile file = EventFile.readAndValidate(events);
        List<JsonNode> users = file.transactions("UserServlet#doGet");
        assertThat(users).as("only the request after the attach is traced").hasSize(1);
        assertThat(file.childrenOf(users.get(0).path("id").asText()))
                .extracting(s -> s.path("name").asText())
                .contains("SELECT FROM users");
        List<JsonNode> orders = file.transactions("OrderServlet#doGet");
        assertThat(orders).hasSize(1);
        assertThat(file.childrenOf(orders.get(0).path("id").asText()))
                .extracting(s -> s.path("name").asText())
                .contains("INSERT INTO orders", "UPDATE orders", "SELECT FROM orders");
        // ThreadPoolExecutor, a JDK class loaded long before the attach, was retransformed with advice that reaches the
        // agent through the bootstrap bridge: the queries its workers ran are children of the request's transaction
        List<JsonNode> report = file.transactions("ReportServlet#doGet");
        assertThat(report).hasSize(1);
        assertThat(file.childrenOf(report.get(0).path("id").asText()))
                .extracting(s -> s.path("name").asText())
                .contains("SELECT FROM users", "SELECT FROM orders");
        // the classes of every hand-off were loaded and their pools started before the attach (the first /handoffs)
        List<JsonNode> handOffs = file.transactions("HandOffServlet#doGet");
        assertThat(handOffs).hasSize(1);
        List<String> statements = new java.util.ArrayList<>();
        for (JsonNode span : file.childrenOf(handOffs.get(0).path("id").asText())) {
            statements.add(span.path("context").path("db").path("statement").asText());
        }
        List<String> expected = new java.util.ArrayList<>(List.of("executor", "scheduled", "fork-join", "fork",
                "completable-default", "completable-pool", "parallel-stream", "nested"));
        if (jdk.hasVirtualThreads()) {
            expected.addAll(List.of("virtual-thread", "virtual-executor"));
        }
        for (String via : expected) {
            assertThat(statements).as(via).anyMatch(sql -> sql.contains("'via-" + via + "'"));
        }
    }

    private static int get(String url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        int status = connection.getResponseCode();
        try (InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream()) {
            if (in != null) {
                in.readAllBytes();
            }
        }
        return status;
    }
}
