package dev.apmagent.it.attach;

import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.apmagent.it.attach.AttachRun.attach;
import static dev.apmagent.it.attach.AttachRun.buildJdk;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar apm-agent.jar attach} against real JVMs on JDK 17 and JDK 25: by pid, by main class, and watching
 * for JVMs as they start. Targets on Java 21+ run without -XX:+EnableDynamicAgentLoading, so they print the JDK's
 * warning about a dynamically loaded agent; the attach must work regardless.
 */
class AttachCommandIT {

    private static final Pattern CONFIG_FILE = Pattern.compile("in (\\S+apm-agent-attach-\\S+\\.properties)");

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void attachesByPidWithConfigurationAndRefusesASecondAttach(Jdk jdk, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("agent.log");
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(jdk))) {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText(), "--config", "log_file=" + log,
                    "--config", "service_name=attach-it", "--verbose");

            assertThat(result.exitCode).as(result.toString()).isZero();
            assertThat(result.stdout).as(result.toString())
                    .contains("attached: JVM " + target.pid + " (" + AttachTargetApp.class.getName() + "): Java " + feature(jdk));
            assertThat(target.awaitAgent()).endsWith(" attach");
            Matcher configFile = CONFIG_FILE.matcher(result.stderr);
            assertThat(configFile.find()).as("--verbose names the configuration file: " + result).isTrue();
            Path written = Paths.get(configFile.group(1));
            assertThat(written.toString()).as("written into the target's view of /tmp").startsWith("/proc/" + target.pid + "/root/tmp/");
            assertThat(result.stderr).contains("with config_file=/tmp/" + written.getFileName());
            assertThat(written).as("deleted once the agent started").doesNotExist();
            if (feature(jdk) >= 21) {
                assertThat(target.jvm.stderr()).as("the JDK's warning; the attach worked anyway").contains("loaded dynamically");
            }

            ForkedJvm.Result again = attach(buildJdk(), "--pid", target.pidText());
            assertThat(again.exitCode).as(again.toString()).isEqualTo(7);
            assertThat(again.stderr).contains("the agent already runs in JVM " + target.pid).contains("attach); nothing was done");
            assertThat(target.jvm.stderr()).as("the second attach never reached the agent").doesNotContain("already running");
            assertThat(target.jvm.stdout()).containsOnlyOnce("agent: ");
        }
    }

    /**
     * The configuration passed with --config and --args-file reaches the agent: it logs to the log_file given there.
     * This needs the agent to read {@code config_file} (and {@code log_file}) at start-up, as the configuration loader
     * does once Agent.start uses it.
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void configurationReachesTheAgent(Jdk jdk, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("agent.log");
        Path argsFile = dir.resolve("agent.properties");
        Files.write(argsFile, ("log_file=" + log + "\nservice_name=from-args-file\n").getBytes(StandardCharsets.UTF_8));
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(jdk))) {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText(), "--args-file", argsFile.toString(),
                    "--config", "service_name=attach-config-it");

            assertThat(result.exitCode).as(result.toString()).isZero();
            target.awaitAgent();
            String agentLog = Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
            assertThat(agentLog).as("agent log " + log + "; target: " + target.jvm)
                    .containsPattern("apm-agent \\S+ started")
                    .contains("attach-config-it");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void listsTheJvmThenAttachesByMainClass(Jdk jdk) throws Exception {
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(jdk).jvmArg("-Dapm.it.list=yes"))) {
            ForkedJvm.Result list = attach(buildJdk(), "--list-vmargs");
            assertThat(list.exitCode).as(list.toString()).isZero();
            assertThat(list.stdout).containsPattern("(?m)^PID +JAVA +AGENT +MAIN +ARGUMENTS$")
                    .containsPattern("(?m)^" + target.pid + " +" + feature(jdk) + "\\S* +\\? +" + Pattern.quote(AttachTargetApp.class.getName()) + " +--token-\\d+$")
                    .contains("JVM options: -Dapm.it.list=yes");
            assertThat(list.stdout).as("the command does not list itself").doesNotContain("attach --list-vmargs");

            ForkedJvm.Result result = attach(buildJdk(), "--include-main", "\\.AttachTargetApp$");
            assertThat(result.exitCode).as(result.toString()).isZero();
            assertThat(result.stdout).contains("attached: JVM " + target.pid + " (" + AttachTargetApp.class.getName() + ")");
            assertThat(target.awaitAgent()).endsWith(" attach");

            // now its attach listener runs, so --list asks the JVM itself
            ForkedJvm.Result after = attach(buildJdk(), "--list", "--pid", target.pidText());
            assertThat(after.stdout).containsPattern("(?m)^" + target.pid + " +\\S+ +yes +");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void continuousModeAttachesToJvmsAsTheyStartUntilStopped(Jdk jdk) throws Exception {
        String token = UUID.randomUUID().toString();
        try (ForkedJvm.Running watcher = AttachRun.command(jdk, "--continuous", "--include-vmarg", "^-Dapm\\.it\\.token=" + token + "$",
                "--poll-interval", "200ms").start()) {
            watcher.awaitStdout("watching for JVMs matching [--include-vmarg ^-Dapm\\.it\\.token=" + token + "$] every 200 ms", 60);
            try (AttachRun.Target first = AttachRun.Target.start(ForkedJvm.on(jdk).jvmArg("-Dapm.it.token=" + token));
                 AttachRun.Target other = AttachRun.Target.start(ForkedJvm.on(jdk).jvmArg("-Dapm.it.token=other"))) {
                assertThat(first.awaitAgent()).endsWith(" attach");
                watcher.awaitStdout("attached: JVM " + first.pid, 30);
                try (AttachRun.Target second = AttachRun.Target.start(ForkedJvm.on(jdk).jvmArg("-Dapm.it.token=" + token))) {
                    assertThat(second.awaitAgent()).endsWith(" attach");
                    watcher.awaitStdout("attached: JVM " + second.pid, 30);
                }
                assertThat(other.jvm.stdout()).as("not selected").doesNotContain("agent: ");
            }
            int exit = watcher.terminate();
            assertThat(watcher.stdout()).as(watcher.toString()).contains("stopped watching for JVMs; attached to 2");
            assertThat(exit).as("SIGTERM ends the watcher with the signal's status").isEqualTo(143);
            assertThat(watcher.stderr()).as(watcher.toString()).doesNotContain("failed:");
        }
    }

    static int feature(Jdk jdk) {
        return jdk.toString().equals("jdk25") ? 25 : Runtime.version().feature();
    }
}
