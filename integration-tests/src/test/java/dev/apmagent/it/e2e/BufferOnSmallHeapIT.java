package dev.apmagent.it.e2e;

import dev.apmagent.it.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code max_buffer_size} far above the heap (issue #17): the demo runs with {@code -Xmx64m} and
 * {@code max_buffer_size=1gb}, a value the option's documentation calls valid. The byte ring used to allocate its whole
 * bound at start-up, so the agent failed to start with an OutOfMemoryError and disabled itself. Now the bound is capped
 * at an eighth of the maximum heap with one WARN naming the heap, the requested and the used size, the ring grows in
 * chunks as it is used, and the agent starts, records the demo's requests and delivers them.
 */
class BufferOnSmallHeapIT {

    @Test
    void aBoundAboveTheHeapIsCappedWithOneWarningAndEventsAreDelivered(@TempDir Path dir) throws Exception {
        Jdk jdk = Jdk.all().get(0);
        Path log = dir.resolve("agent.log");
        try (StandInApmServer server = new StandInApmServer()) {
            try (Demo demo = Demo.start(Demo.jvm(jdk)
                    .withAgent("server_url=" + server.url() + ",log_file=" + log + ",max_buffer_size=1gb"
                            + ",api_request_time=1s,metrics_interval=0")
                    .jvmArg("-Xmx64m").jvmArg("-XX:+ExitOnOutOfMemoryError"))) {
                awaitDelivered(demo, server);
                assertThat(demo.stop()).as("the demo exits normally: " + demo.jvm).isZero();
                assertThat(demo.jvm.stderr()).doesNotContain("OutOfMemoryError").doesNotContain("failed to start");
            }
        }
        String agentLog = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        assertThat(agentLog).as(agentLog).containsPattern("apm-agent \\S+ started").doesNotContain("failed to start");
        List<String> warnings = agentLog.lines()
                .filter(line -> line.contains("] WARN ") && line.contains("max_buffer_size"))
                .collect(Collectors.toList());
        assertThat(warnings).as("WARN lines about max_buffer_size in\n" + agentLog).hasSize(1);
        assertThat(warnings.get(0)).containsPattern(
                "max_buffer_size=1gb is more than 1/8 of the maximum heap \\((\\d+(\\.\\d)?mb)\\): using (\\d+(kb|mb))");
    }

    /** Requests the demo's /hello until one of their transactions reaches the server (90 s at most). */
    private static void awaitDelivered(Demo demo, StandInApmServer server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            assertThat(demo.get("/hello?phase=small-heap").status).isEqualTo(200);
            for (String line : server.acceptedLines()) {
                if (line.startsWith("{\"transaction\"") && line.contains("phase=small-heap")) {
                    return;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no transaction arrived within 90 s; " + server.acceptedLines().size()
                        + " lines accepted; " + demo.jvm);
            }
            Thread.sleep(250);
        }
    }
}
