package dev.apmagent.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.apps.HelloApp;
import dev.apmagent.it.apps.WaitApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the real jar does with configuration that would otherwise hurt quietly: a typo in the instrumentation
 * selection, and secrets among the JVM's arguments when {@code include_process_args} sends them.
 */
class ConfigurationHardeningIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** A typo'd name turns nothing off without a word: the log names it, lists the valid names and says nothing is traced. */
    @ParameterizedTest
    @MethodSource("jdks")
    void aTypoInTheInstrumentationSelectionIsReported(Jdk jdk, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("agent.log");
        ForkedJvm.Result result = ForkedJvm.on(jdk)
                .withAgent("log_file=" + log + ",output_file=" + dir.resolve("events.ndjson"))
                .jvmArg("-Delastic.apm.enable_instrumentations=servlets,jbdc")
                .jvmArg("-Delastic.apm.disable_instrumentations=jdbc-statment")
                .main(HelloApp.class, "0").run();
        assertThat(result.exitCode).as(result.toString()).isZero();

        List<String> warnings = warnLines(log);
        assertThat(warnings).as(read(log))
                .anyMatch(line -> line.contains("enable_instrumentations names instrumentations that do not exist: servlets,jbdc")
                        && line.contains("valid names") && line.contains("jdbc") && line.contains("servlet"))
                .anyMatch(line -> line.contains("disable_instrumentations names an instrumentation that does not exist: jdbc-statment"))
                .anyMatch(line -> line.contains("No instrumentation is installed"));
        assertThat(read(log)).contains("instrumentations=[]");
    }

    /** A valid selection is quiet. */
    @ParameterizedTest
    @MethodSource("jdks")
    void aValidSelectionGivesNoWarning(Jdk jdk, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("agent.log");
        ForkedJvm.Result result = ForkedJvm.on(jdk)
                .withAgent("log_file=" + log + ",output_file=" + dir.resolve("events.ndjson"))
                .jvmArg("-Delastic.apm.enable_instrumentations=jdbc,servlet")
                .main(HelloApp.class, "0").run();
        assertThat(result.exitCode).as(result.toString()).isZero();
        assertThat(read(log)).as("the agent ran and logged").contains(" started: ");
        assertThat(warnLines(log)).as(read(log)).isEmpty();
    }

    /** metadata.process.argv carries no secret of the agent's, no sanitized field's value and no URL credentials. */
    @ParameterizedTest
    @MethodSource("jdks")
    void processArgsAreSentWithoutSecrets(Jdk jdk, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("agent.log");
        Path events = dir.resolve("events.ndjson");
        ForkedJvm.Result result = ForkedJvm.on(jdk)
                .withAgent("secret_token=AgentArgT0ken,api_key=AgentArgK3y,include_process_args=true,metrics_interval=1s,"
                        + "output_file=" + events + ",log_file=" + log)
                .jvmArg("-Delastic.apm.secret_token=SysPropT0ken")
                .jvmArg("-Delastic.apm.server_url=http://apm-user:UrlPa55@127.0.0.1:8200")
                .jvmArg("-Ddb.password=DbPa55")
                .jvmArg("-Dapp.visible=shown")
                .main(WaitApp.class, "2500").run();
        assertThat(result.exitCode).as(result.toString()).isZero();

        EventFile file = EventFile.readAndValidate(events);
        List<JsonNode> metadata = file.all("metadata");
        assertThat(metadata).as(new String(Files.readAllBytes(events), StandardCharsets.UTF_8)).isNotEmpty();
        List<String> argv = new ArrayList<>();
        metadata.get(0).path("process").path("argv").forEach(arg -> argv.add(arg.asText()));
        assertThat(argv)
                .contains("-Delastic.apm.secret_token=[REDACTED]", "-Delastic.apm.server_url=http://[REDACTED]@127.0.0.1:8200",
                        "-Ddb.password=[REDACTED]", "-Dapp.visible=shown")
                .anyMatch(arg -> arg.startsWith("-javaagent:") && arg.contains("secret_token=[REDACTED],api_key=[REDACTED],include_process_args=true"));
        String everything = new String(Files.readAllBytes(events), StandardCharsets.UTF_8) + read(log);
        for (String secret : new String[] {"AgentArgT0ken", "AgentArgK3y", "SysPropT0ken", "UrlPa55", "DbPa55"}) {
            assertThat(everything).as("events and log").doesNotContain(secret);
        }
    }

    private static List<String> warnLines(Path log) throws Exception {
        List<String> warnings = new ArrayList<>();
        for (String line : read(log).split("\n")) {
            if (line.contains("] WARN ")) {
                warnings.add(line);
            }
        }
        return warnings;
    }

    private static String read(Path file) throws Exception {
        return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
    }
}
