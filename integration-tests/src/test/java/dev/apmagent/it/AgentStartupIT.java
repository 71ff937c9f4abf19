package dev.apmagent.it;

import dev.apmagent.it.apps.HelloApp;
import dev.apmagent.it.apps.InternalsApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import testapp.startup.ContextFieldApp;
import testapp.startup.DriverApp;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The real agent jar in a separate JVM, on JDK 17 and JDK 25: it starts, says so, and changes nothing the application does. */
class AgentStartupIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void agentStartsAndApplicationOutputIsUnchanged(Jdk jdk, @TempDir Path dir) throws Exception {
        ForkedJvm.Result without = ForkedJvm.on(jdk).main(HelloApp.class, "3").run();
        Path log = dir.resolve("agent.log");
        ForkedJvm.Result with = ForkedJvm.on(jdk)
                .withAgent("log_file=" + log + ",output_file=" + dir.resolve("events.ndjson"))
                .main(HelloApp.class, "3").run();

        assertThat(without.exitCode).isEqualTo(3);
        assertThat(with.exitCode).as(with.toString()).isEqualTo(3);
        assertThat(with.stdout).isEqualTo(without.stdout);
        assertThat(with.stderr).isEqualTo(without.stderr);

        String agentLog = read(log);
        assertThat(agentLog).as(agentLog)
                .containsPattern("apm-agent \\S+ started")
                .contains("service_name=HelloApp")
                .contains("instrumentations=[")
                .contains("jdbc");
    }

    /**
     * With the agent at start-up, a driver's connection and statement classes load after it and get the context
     * field the JDBC plugin keeps their endpoint and SQL in (after an attach they use the stores' maps:
     * AttachTracingIT's span names come from there).
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void jdbcClassesLoadedAfterStartUpGetContextFields(Jdk jdk, @TempDir Path dir) throws Exception {
        Path demoJar = Paths.get(System.getProperty("user.dir")).resolve("../target/apm-agent-demo.jar").normalize();
        ForkedJvm.Result without = ForkedJvm.on(jdk).classPath(demoJar).main(ContextFieldApp.class).run();
        ForkedJvm.Result with = ForkedJvm.on(jdk).classPath(demoJar)
                .withAgent("log_file=" + dir.resolve("agent.log") + ",output_file=" + dir.resolve("events.ndjson"))
                .main(ContextFieldApp.class).run();

        assertThat(without.stdout).as(without.toString()).isEqualTo("connection false, statement false" + System.lineSeparator());
        assertThat(with.stdout).as(with.toString()).isEqualTo("connection true, statement true" + System.lineSeparator());
        assertThat(with.stderr).isEqualTo(without.stderr);
    }

    /** Defining the bootstrap bridge exports a JDK internal package to the agent's injector module only. */
    @ParameterizedTest
    @MethodSource("jdks")
    void theApplicationGainsNoAccessToTheJdksInternals(Jdk jdk, @TempDir Path dir) throws Exception {
        ForkedJvm.Result with = ForkedJvm.on(jdk)
                .withAgent("log_file=" + dir.resolve("agent.log") + ",output_file=" + dir.resolve("events.ndjson"))
                .main(InternalsApp.class).run();
        assertThat(with.stdout).as(with.toString()).isEqualTo("jdk.internal.misc.Unsafe inaccessible\n");
        assertThat(read(dir.resolve("agent.log"))).contains("executor").doesNotContain("appending it to its search path");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void disabledAgentInstallsNothing(Jdk jdk, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("agent.log");
        Path classLoading = dir.resolve("classes.txt");
        ForkedJvm.Result with = ForkedJvm.on(jdk)
                .withAgent("enabled=false,log_file=" + log)
                .jvmArg("-Xlog:class+load=info:file=" + classLoading)
                .main(HelloApp.class, "0").run();

        assertThat(with.exitCode).as(with.toString()).isZero();
        assertThat(read(log)).contains("disabled");
        List<String> agentClasses = Files.readAllLines(classLoading, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("dev.apmagent.shaded.net.bytebuddy") || line.contains("dev.apmagent.instrument"))
                .collect(Collectors.toList());
        assertThat(agentClasses).as("no instrumentation class may be loaded when enabled=false").isEmpty();
    }

    /**
     * The agent's start-up cost is mostly loading classes (docs/benchmarks.md, start-up). ByteBuddy's AgentBuilder
     * generated a transformer subclass with ByteBuddy's class-generation DSL when it initialized, a fifth of the
     * agent's start-up on one core; the agent's own class file hook needs neither.
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void startingTheAgentGeneratesNoClassAndLoadsNoAgentBuilder(Jdk jdk, @TempDir Path dir) throws Exception {
        Path classLoading = dir.resolve("classes.txt");
        ForkedJvm.Result with = ForkedJvm.on(jdk)
                .withAgent("log_file=" + dir.resolve("agent.log") + ",output_file=" + dir.resolve("events.ndjson"))
                .jvmArg("-Xlog:class+load=info:file=" + classLoading)
                .main(DriverApp.class).run();

        assertThat(with.exitCode).as(with.toString()).isZero();
        assertThat(with.stdout).isEqualTo("connection=null" + System.lineSeparator());
        List<String> loaded = Files.readAllLines(classLoading, StandardCharsets.UTF_8);
        assertThat(loaded).as("the driver was instrumented").anyMatch(line -> line.contains("bytebuddy.asm.Advice "));
        assertThat(loaded).as("class generation and AgentBuilder stay unloaded").noneMatch(line ->
                line.contains("dev.apmagent.shaded.net.bytebuddy.agent.builder.")
                        || line.contains("dev.apmagent.shaded.net.bytebuddy.implementation.MethodCall")
                        || line.contains("dev.apmagent.shaded.net.bytebuddy.dynamic.loading.ByteArrayClassLoader"));
    }

    private static String read(Path file) throws Exception {
        return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
    }
}
