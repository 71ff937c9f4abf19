package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The command's exit codes and messages for what can be decided without a target JVM (forked-JVM cases are in integration-tests). */
class AttachCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return AttachCommand.run(args, new PrintStream(out, true), new PrintStream(err, true));
    }

    private String out() {
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
    }

    private String err() {
        return new String(err.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void helpDocumentsEveryOptionAndExitCode() {
        assertThat(run("--help")).isZero();
        String help = out();
        for (String flag : new String[]{"--list", "--list-vmargs", "--pid", "--include-all", "--include-main", "--exclude-main",
                "--include-vmarg", "--exclude-vmarg", "--continuous", "--poll-interval", "--config", "--args-file", "--agent-jar",
                "--verbose", "--help", "Examples:", "config_file=<path>", "EnableDynamicAgentLoading"}) {
            assertThat(help).as(flag).contains(flag);
        }
        for (ExitCode code : ExitCode.values()) {
            assertThat(help).contains(String.format("  %2d  %s", code.code(), code.meaning()));
        }
        assertThat(err()).isEmpty();
    }

    @Test
    void usageErrorExitsWith2() {
        assertThat(run("--pid", "x")).isEqualTo(2);
        assertThat(err()).contains("error: not a pid: 'x'").contains("attach --help");
        assertThat(out()).isEmpty();
    }

    @Test
    void agentJarNotFoundExitsWith10() {
        // these classes come from target/classes, not from the agent jar
        assertThat(run("--pid", "1")).isEqualTo(ExitCode.SETUP.code());
        assertThat(err()).contains("cannot find the agent jar").contains("--agent-jar PATH");
    }

    @Test
    void agentJarThatIsNotTheAgentExitsWith10(@TempDir Path dir) throws Exception {
        File other = AgentJarTest.jar(dir, "other.jar", "com.other.Agent");
        assertThat(run("--pid", "1", "--agent-jar", other.getPath())).isEqualTo(10);
        assertThat(err()).contains("is not the apm-agent jar");
    }

    @Test
    void missingArgsFileExitsWith10(@TempDir Path dir) throws Exception {
        File jar = AgentJarTest.jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);
        assertThat(run("--pid", "1", "--agent-jar", jar.getPath(), "--args-file", dir.resolve("none.properties").toString())).isEqualTo(10);
        assertThat(err()).contains("cannot read --args-file");
    }

    @Test
    void noSuchProcessExitsWith3(@TempDir Path dir) throws Exception {
        assumeTrue(ProcFs.system() != null, "needs /proc");
        File jar = AgentJarTest.jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);
        long unused = unusedPid();
        assertThat(run("--pid", Long.toString(unused), "--agent-jar", jar.getPath())).isEqualTo(3);
        assertThat(err()).contains("failed: JVM " + unused).contains("no process with pid " + unused).contains("[exit code 3]");
    }

    @Test
    void processThatIsNotAJvmExitsWith4AndIsNotSignalled(@TempDir Path dir) throws Exception {
        assumeTrue(ProcFs.system() != null, "needs /proc");
        File jar = AgentJarTest.jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            assertThat(run("--pid", Long.toString(sleep.pid()), "--agent-jar", jar.getPath())).isEqualTo(4);
            assertThat(err()).contains("process " + sleep.pid() + " (sleep) is not a JVM");
            assertThat(sleep.isAlive()).as("a SIGQUIT would have killed it").isTrue();
        } finally {
            sleep.destroy();
            sleep.waitFor();
        }
    }

    @Test
    void severalFailuresOfDifferentKindsExitWith11(@TempDir Path dir) throws Exception {
        assumeTrue(ProcFs.system() != null, "needs /proc");
        File jar = AgentJarTest.jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            long unused = unusedPid();
            assertThat(run("--pid", Long.toString(sleep.pid()), "--pid", Long.toString(unused), "--agent-jar", jar.getPath()))
                    .isEqualTo(11);
            assertThat(err()).contains("[exit code 4]").contains("[exit code 3]");
            assertThat(out()).contains("0 of 2 JVMs attached");
        } finally {
            sleep.destroy();
            sleep.waitFor();
        }
    }

    @Test
    void ownPidIsRefused(@TempDir Path dir) throws Exception {
        File jar = AgentJarTest.jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);
        assertThat(run("--pid", Long.toString(ProcessHandle.current().pid()), "--agent-jar", jar.getPath())).isEqualTo(2);
        assertThat(err()).contains("is this attach command itself");
    }

    @Test
    void ruleThatMatchesNothingExitsWith9(@TempDir Path dir) throws Exception {
        File jar = AgentJarTest.jar(dir, "apm-agent.jar", AgentJar.AGENT_CLASS);
        assertThat(run("--include-main", "^no\\.such\\.Main[0-9a-f]{8}$", "--agent-jar", jar.getPath())).isEqualTo(9);
        assertThat(err()).contains("no running JVM of this user matched [--include-main ^no\\.such\\.Main[0-9a-f]{8}$]");
    }

    @Test
    void listNeverShowsTheCommandItself() {
        assertThat(run("--list", "--pid", Long.toString(ProcessHandle.current().pid()))).isZero();
        assertThat(out()).contains("no running JVM of this user matches the selection");
    }

    private static long unusedPid() {
        long pid = 4_000_000;
        while (ProcessHandle.of(pid).isPresent()) {
            pid--;
        }
        return pid;
    }
}
