package dev.apmagent.it;

import dev.apmagent.it.apps.HelloApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar apm-agent.jar <command>} on JDK 17 and JDK 25: the jar's Main-Class and the commands it dispatches
 * to (apm-agent-tools) are in the shaded jar, and an application running with the agent never loads them.
 */
class AgentCliIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void versionUsageAndViewRunFromTheJar(Jdk jdk, @TempDir Path dir) throws Exception {
        ForkedJvm.Result version = cli(jdk, "version");
        assertThat(version.exitCode).as(version.toString()).isZero();
        assertThat(version.stdout).matches("apm-agent \\S+\\R");

        ForkedJvm.Result usage = cli(jdk);
        assertThat(usage.exitCode).as(usage.toString()).isEqualTo(2);
        assertThat(usage.stdout).contains("  attach ", "  view ", "  version ");

        Path events = dir.resolve("events.ndjson");
        Files.write(events, Arrays.asList(
                "{\"metadata\":{\"service\":{\"name\":\"shop\",\"agent\":{\"name\":\"apm-agent\",\"version\":\"0.1.0\"}}}}",
                "{\"transaction\":{\"id\":\"aaaa\",\"trace_id\":\"trace1\",\"name\":\"GET /orders\",\"type\":\"request\","
                        + "\"timestamp\":1767225600000000,\"duration\":100.0,\"outcome\":\"success\","
                        + "\"span_count\":{\"started\":0,\"dropped\":0},\"sampled\":true}}"), StandardCharsets.UTF_8);
        ForkedJvm.Result view = cli(jdk, "view", "--ascii", events.toString());
        assertThat(view.exitCode).as(view.toString()).isZero();
        assertThat(view.stdout).contains("trace trace1").containsPattern("GET /orders +request +100\\.000 ms +success");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void anApplicationWithTheAgentLoadsNoToolClass(Jdk jdk, @TempDir Path dir) throws Exception {
        Path classLoading = dir.resolve("classes.txt");
        ForkedJvm.Result app = ForkedJvm.on(jdk)
                .withAgent("log_file=" + dir.resolve("agent.log") + ",output_file=" + dir.resolve("events.ndjson"))
                .jvmArg("-Xlog:class+load=info:file=" + classLoading)
                .main(HelloApp.class, "0").run();

        assertThat(app.exitCode).as(app.toString()).isZero();
        List<String> loaded = Files.readAllLines(classLoading, StandardCharsets.UTF_8);
        assertThat(loaded).anyMatch(line -> line.contains("dev.apmagent.bootstrap.AgentMain"));
        assertThat(loaded.stream().filter(line -> line.contains("dev.apmagent.tools.") || line.contains("dev.apmagent.view."))
                .collect(Collectors.toList())).isEmpty();
    }

    private static ForkedJvm.Result cli(Jdk jdk, String... args) throws Exception {
        return ForkedJvm.on(jdk).jar(TestPaths.agentJar(), args).timeoutSeconds(60).run();
    }
}
