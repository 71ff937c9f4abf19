package dev.apmagent.it.attach;

import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import dev.apmagent.it.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

import static dev.apmagent.it.attach.AttachRun.attach;
import static dev.apmagent.it.attach.AttachRun.buildJdk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Each failure of the attach command against real processes: its message and its exit code. */
class AttachErrorsIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @Test
    void noSuchProcess() throws Exception {
        long pid = unusedPid();
        ForkedJvm.Result result = attach(buildJdk(), "--pid", Long.toString(pid));
        assertThat(result.exitCode).as(result.toString()).isEqualTo(3);
        assertThat(result.stderr).contains("no process with pid " + pid);
    }

    @Test
    void processThatIsNotAJvmIsNeitherAttachedNorSignalled() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "120").start();
        try {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", Long.toString(sleep.pid()));
            assertThat(result.exitCode).as(result.toString()).isEqualTo(4);
            assertThat(result.stderr).contains("process " + sleep.pid() + " (sleep) is not a JVM");
            assertThat(sleep.isAlive()).as("SIGQUIT would have killed it").isTrue();
        } finally {
            sleep.destroy();
            sleep.waitFor();
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void jvmWithAttachDisabledIsRefusedBeforeAnySignal(Jdk jdk) throws Exception {
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(jdk).jvmArg("-XX:+DisableAttachMechanism"))) {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText());
            assertThat(result.exitCode).as(result.toString()).isEqualTo(6);
            assertThat(result.stderr).contains("JVM " + target.pid + " was started with -XX:+DisableAttachMechanism");
            assertThat(target.jvm.stdout()).as("a SIGQUIT makes such a JVM print a thread dump").doesNotContain("Full thread dump");
            assertThat(target.jvm.process.isAlive()).isTrue();
        }
    }

    /** Hidden in an @argfile, the option is not on the command line; the JVM's perf data still shows it. */
    @ParameterizedTest
    @MethodSource("jdks")
    void jvmWithAttachDisabledInAnArgFileIsRefusedBeforeAnySignal(Jdk jdk, @TempDir Path dir) throws Exception {
        Path argFile = Files.write(dir.resolve("jvm.args"), "-Xss1m -XX:+DisableAttachMechanism\n".getBytes(StandardCharsets.UTF_8));
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(jdk).jvmArg("@" + argFile))) {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText());
            assertThat(result.exitCode).as(result.toString()).isEqualTo(6);
            assertThat(result.stderr).contains("JVM " + target.pid + " was started with -XX:+DisableAttachMechanism");
            assertThat(target.jvm.stdout()).doesNotContain("Full thread dump");
        }
    }

    /**
     * Without perf data and with the option hidden in an @argfile nothing tells beforehand: the attach is tried (the
     * JVM answers the signal with a thread dump) and its failure is reported as attach disabled.
     */
    @Test
    void attachDisabledThatOnlyTheAttemptRevealsIsMappedFromTheFailure(@TempDir Path dir) throws Exception {
        Path argFile = Files.write(dir.resolve("jvm.args"), "-XX:-UsePerfData -XX:+DisableAttachMechanism\n".getBytes(StandardCharsets.UTF_8));
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(buildJdk()).jvmArg("@" + argFile))) {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText());
            assertThat(result.exitCode).as(result.toString()).isEqualTo(6);
            assertThat(result.stderr).contains("JVM " + target.pid + " does not accept the attach")
                    .contains("-XX:+DisableAttachMechanism");
            assertThat(target.jvm.process.isAlive()).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void jvmWithTheAgentFromJavaagentIsNotAttachedAgain(Jdk jdk, @TempDir Path dir) throws Exception {
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(jdk).withAgent("log_file=" + dir.resolve("agent.log")))) {
            assertThat(target.awaitAgent()).endsWith(" javaagent");
            ForkedJvm.Result list = attach(buildJdk(), "--list", "--pid", target.pidText());
            assertThat(list.stdout).as(list.toString()).containsPattern("(?m)^" + target.pid + " +\\S+ +yes \\(-javaagent\\) +");

            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText());
            assertThat(result.exitCode).as(result.toString()).isEqualTo(7);
            assertThat(result.stderr).contains("the agent already runs in JVM " + target.pid).contains("javaagent); nothing was done");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void jvmOfAnotherUserIsRefusedWithAdvice(Jdk jdk) throws Exception {
        List<String> asNobody = runAsNobody();
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(jdk).commandPrefix(asNobody))) {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText());
            assertThat(result.exitCode).as(result.toString()).isEqualTo(5);
            assertThat(result.stderr).contains("process " + target.pid + " belongs to user 'nobody'")
                    .contains("the Attach API only connects to JVMs of the same user")
                    .contains("sudo -u nobody java -jar apm-agent.jar attach --pid " + target.pid);
            assertThat(target.jvm.stdout()).doesNotContain("agent: ");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void severalTargetsAreEachReportedAndTheExitCodeNamesTheFailure(Jdk jdk) throws Exception {
        long missing = unusedPid();
        try (AttachRun.Target target = AttachRun.Target.start(ForkedJvm.on(jdk))) {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText(), "--pid", Long.toString(missing));
            assertThat(result.exitCode).as(result.toString()).isEqualTo(3);
            assertThat(result.stdout).contains("attached: JVM " + target.pid).contains("1 of 2 JVMs attached");
            assertThat(result.stderr).contains("failed: JVM " + missing + ": no process with pid " + missing + " [exit code 3]");
            target.awaitAgent();
        }
    }

    @Test
    void usageErrorsExitWith2() throws Exception {
        ForkedJvm.Result result = attach(buildJdk(), "--pid", "not-a-pid");
        assertThat(result.exitCode).as(result.toString()).isEqualTo(2);
        assertThat(result.stderr).contains("error: not a pid: 'not-a-pid'");
        ForkedJvm.Result help = attach(buildJdk(), "--help");
        assertThat(help.exitCode).isZero();
        assertThat(help.stdout).contains("Exit codes:").contains("java -jar apm-agent.jar attach --list");
    }

    /** The command prefix that runs a JVM as user nobody: needs root; skipped elsewhere, except in CI where it must work. */
    private static List<String> runAsNobody() throws Exception {
        int uid = ((Number) Files.getAttribute(Paths.get("/proc/self"), "unix:uid")).intValue();
        boolean possible = uid == 0 && Files.isExecutable(Paths.get("/usr/bin/setpriv"))
                && Files.isReadable(TestPaths.testClasses());
        if (!possible) {
            String why = "running a JVM as user nobody needs root and /usr/bin/setpriv (uid " + uid + ")";
            if (TestPaths.isCi()) {
                fail(why);
            }
            assumeTrue(false, why);
        }
        Process id = new ProcessBuilder("id", "-u", "nobody").start();
        String nobody = new String(id.getInputStream().readAllBytes()).trim();
        assumeTrue(id.waitFor() == 0 && !nobody.isEmpty(), "no user nobody");
        return Arrays.asList("/usr/bin/setpriv", "--reuid=" + nobody, "--regid=" + nobody, "--clear-groups", "--");
    }

    private static long unusedPid() {
        long pid = 4_000_000;
        while (ProcessHandle.of(pid).isPresent()) {
            pid--;
        }
        return pid;
    }
}
