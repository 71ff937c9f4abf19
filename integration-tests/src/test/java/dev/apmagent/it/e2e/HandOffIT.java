package dev.apmagent.it.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import dev.apmagent.it.apps.VirtualThreadApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Context across threads on the real agent jar, one demo JVM per JDK (17 and 25) for every mechanism: the demo's
 * {@code /handoffs} runs one JDBC query through each way of handing work to another thread (see
 * {@code DemoApp.HandOffServlet}), and each query span is a child of the request's transaction. With
 * {@code enable_experimental_instrumentations=true}, for {@code Thread.start}; a second request with
 * {@code disable_instrumentations} would be a second JVM, so the switch is checked by the unit tests instead.
 */
class HandOffIT {

    private static final List<String> EVERY_JDK = Arrays.asList("executor", "scheduled", "fork-join", "fork",
            "completable-default", "completable-pool", "parallel-stream", "nested", "thread");
    private static final List<String> JAVA_21 = Arrays.asList("virtual-thread", "virtual-executor");

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void everyHandOffsQueryIsAChildOfTheRequest(Jdk jdk, @TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.ndjson");
        Demo.Response response;
        try (Demo demo = Demo.start(Demo.jvm(jdk).withAgent("output_file=" + events + ",log_file=" + dir.resolve("agent.log")
                + ",metrics_interval=0,enable_experimental_instrumentations=true"))) {
            response = demo.get("/handoffs");
            assertThat(demo.stop()).as(demo.jvm.toString()).isZero();
        }
        List<String> expected = new ArrayList<>(EVERY_JDK);
        if (jdk.hasVirtualThreads()) {
            expected.addAll(JAVA_21);
        }
        assertThat(response.toString()).isEqualTo("200 " + String.join(" ", expected));

        EventFile file = EventFile.readAndValidate(events);
        List<JsonNode> request = file.transactions("HandOffServlet#doGet");
        assertThat(request).hasSize(1);
        String transactionId = request.get(0).path("id").asText();
        String traceId = request.get(0).path("trace_id").asText();
        for (String via : expected) {
            List<JsonNode> spans = new ArrayList<>();
            for (JsonNode span : file.all("span")) {
                if (span.path("context").path("db").path("statement").asText().contains("'via-" + via + "'")) {
                    spans.add(span);
                }
            }
            assertThat(spans).as(via + ": its query was recorded").isNotEmpty();
            for (JsonNode span : spans) {
                assertThat(span.path("parent_id").asText()).as(via + ": parent").isEqualTo(transactionId);
                assertThat(span.path("trace_id").asText()).as(via + ": trace").isEqualTo(traceId);
            }
        }
    }

    /** The JDKs with virtual threads (25; the build's 17 has none). */
    static List<Jdk> virtualThreadJdks() {
        List<Jdk> jdks = new ArrayList<>(Jdk.all());
        jdks.removeIf(jdk -> !jdk.hasVirtualThreads());
        assertThat(jdks).as("a JDK with virtual threads").isNotEmpty();
        return jdks;
    }

    /**
     * Java 21+: the virtual thread keeps its context across a park, and its start is one activation, not two; and with
     * the default options the experimental {@code thread-start} is not installed.
     */
    @ParameterizedTest
    @MethodSource("virtualThreadJdks")
    void aVirtualThreadIsOneActivationAndKeepsItsContextAcrossAPark(Jdk jdk, @TempDir Path dir) throws Exception {
        ForkedJvm.Result run = ForkedJvm.on(jdk)
                .withAgent("log_file=" + dir.resolve("agent.log") + ",output_file=" + dir.resolve("events.ndjson") + ",metrics_interval=0")
                .main(VirtualThreadApp.class).run();
        assertThat(run.stdout).as(run.toString()).isEqualTo("before park true, after park true, activations 1\n");
        assertThat(new String(java.nio.file.Files.readAllBytes(dir.resolve("agent.log")), java.nio.charset.StandardCharsets.UTF_8))
                .as("thread-start is experimental: not installed without enable_experimental_instrumentations")
                .contains("virtual-thread").doesNotContain("thread-start");
    }
}
