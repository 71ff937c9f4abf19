package dev.apmagent.it.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.Jdk;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bootstrap bridge at start-up, on the real agent jar (JDK 17 and JDK 25): the demo's {@code /report} runs two
 * queries on a {@code ThreadPoolExecutor}, a class of the bootstrap loader whose advice reaches the agent only through
 * the bridge. Both query spans (recorded on the pool's threads) are children of the request's transaction; the bridge
 * was defined in the bootstrap loader without appending to its search path, so the JVM keeps class data sharing and
 * prints no warning. (The same after an attach: AttachTracingIT.)
 */
class ExecutorPropagationIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void queriesOnAThreadPoolAreChildrenOfTheRequest(Jdk jdk, @TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.ndjson");
        Path log = dir.resolve("agent.log");
        Demo.Response response;
        String stderr;
        try (Demo demo = Demo.start(Demo.jvm(jdk)
                .withAgent("output_file=" + events + ",log_file=" + log + ",metrics_interval=0")
                .jvmArg("-Xlog:class+load=info:file=" + dir.resolve("classes.log")))) {
            response = demo.get("/report");
            assertThat(demo.stop()).as(demo.jvm.toString()).isZero();
            stderr = demo.jvm.stderr();
        }
        assertThat(response.toString()).startsWith("200 3 users, ");

        EventFile file = EventFile.readAndValidate(events);
        List<JsonNode> report = file.transactions("ReportServlet#doGet");
        assertThat(report).hasSize(1);
        String transactionId = report.get(0).path("id").asText();
        List<JsonNode> children = file.childrenOf(transactionId);
        assertThat(children).extracting(s -> s.path("name").asText()).contains("SELECT FROM users", "SELECT FROM orders");
        for (JsonNode span : children) {
            assertThat(span.path("trace_id").asText()).isEqualTo(report.get(0).path("trace_id").asText());
        }

        List<String> classLoading = Files.readAllLines(dir.resolve("classes.log"));
        List<String> bridge = classLoading.stream().filter(line -> line.contains(" dev.apmagent.bridge.")).collect(Collectors.toList());
        assertThat(bridge).as("the bridge is defined in the bootstrap loader").isNotEmpty()
                .allMatch(line -> line.endsWith("source: __JVM_DefineClass__"));
        assertThat(classLoading).as("nothing was appended to the bootstrap search path").noneMatch(line -> line.contains("apm-agent-bridge-"));
        assertThat(stderr).as("so the JVM keeps class data sharing and says nothing").doesNotContain("Sharing is only supported");
    }
}
