package dev.apmagent.it.attach;

import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import dev.apmagent.it.TestPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.apmagent.it.attach.AttachRun.attach;
import static dev.apmagent.it.attach.AttachRun.buildJdk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A target that sees another /tmp than the attach command (as in a container, or a systemd service with PrivateTmp):
 * the agent jar, kept in the command's /tmp, is invisible to it, and so would a configuration file there be. The
 * command must hand both over through the target's own view of the file system.
 *
 * <p>The target runs in a new mount namespace with an empty tmpfs on /tmp. That hides everything under /tmp from it,
 * this module's test classes too when the checkout itself lives under /tmp (a fresh clone in /tmp/...), so its class
 * path is a copy of the test classes in a directory under /var/tmp, which the tmpfs does not cover. Only the class path
 * moves: the agent jar and the configuration still live in the command's /tmp, invisible to the target, and must reach
 * it through its own /tmp.
 */
class AttachPrivateTmpIT {

    /** Runs the JVM in a new mount namespace with an empty tmpfs on /tmp. */
    private static final List<String> PRIVATE_TMP = Arrays.asList("unshare", "--mount", "--propagation", "private", "--",
            "sh", "-c", "mount -t tmpfs apm-it-tmp /tmp && exec \"$0\" \"$@\"");

    /** The target's class path: this module's test classes, copied outside /tmp (see the class comment). */
    private static Path targetClasses;

    @BeforeAll
    static void copyTestClassesOutsideTmp() throws IOException {
        Path parent = Paths.get("/var/tmp");
        if (parent.toRealPath().startsWith(Paths.get("/tmp").toRealPath())) {
            throw new IllegalStateException(parent + " lies under /tmp here: a target with its own /tmp could not see its classes");
        }
        targetClasses = Files.createTempDirectory(parent, "apm-it-classes-");
        Path source = TestPaths.testClasses();
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path copy = targetClasses.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
    }

    @AfterAll
    static void deleteTheCopy() throws IOException {
        if (targetClasses != null) {
            try (Stream<Path> files = Files.walk(targetClasses)) {
                for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(file);
                }
            }
        }
    }

    /** A JVM of {@code jdk} with its own, empty /tmp. */
    private static ForkedJvm withPrivateTmp(Jdk jdk) {
        return ForkedJvm.on(jdk).commandPrefix(PRIVATE_TMP).classPathOnly(targetClasses);
    }

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void agentJarAndConfigurationReachATargetWithItsOwnTmp(Jdk jdk) throws Exception {
        assumeTrue(canUnshareMounts(), "creating a mount namespace needs root (CAP_SYS_ADMIN) and unshare(1)");
        Path hostDir = Files.createTempDirectory(Paths.get("/tmp"), "apm-it-host-");
        Path agentJar = Files.copy(TestPaths.agentJar(), hostDir.resolve("apm-agent.jar"));
        try (AttachRun.Target target = AttachRun.Target.start(withPrivateTmp(jdk))) {
            assertThat(Files.exists(Paths.get("/proc/" + target.pid + "/root" + agentJar))).as("the target cannot see the jar").isFalse();

            ForkedJvm.Result result = attach(newestJdk(), "--pid", target.pidText(), "--agent-jar", agentJar.toString(),
                    "--config", "service_name=private-tmp", "--verbose");

            assertThat(result.exitCode).as(result.toString()).isZero();
            assertThat(target.awaitAgent()).endsWith(" attach");
            assertThat(result.stderr).contains("JVM " + target.pid + " does not see " + agentJar)
                    .containsPattern("loading /tmp/apm-agent-\\d+\\.jar into JVM " + target.pid
                            + " with config_file=/tmp/apm-agent-attach-\\d+\\.properties");
            Matcher written = Pattern.compile("in (/proc/" + target.pid + "/root/tmp/apm-agent-attach-\\d+\\.properties)").matcher(result.stderr);
            assertThat(written.find()).as(result.stderr).isTrue();
            assertThat(Paths.get(written.group(1))).as("deleted once the agent started").doesNotExist();
        } finally {
            Files.deleteIfExists(agentJar);
            Files.deleteIfExists(hostDir);
        }
    }

    /**
     * Attach clients before Java 21 cannot reach a JVM with its own /tmp in the same pid namespace (they look for its
     * socket in their own /tmp); the command says so instead of failing vaguely.
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void anOlderAttachClientExplainsWhyItCannotReachSuchATarget(Jdk jdk) throws Exception {
        assumeTrue(canUnshareMounts(), "creating a mount namespace needs root (CAP_SYS_ADMIN) and unshare(1)");
        assumeTrue(Runtime.version().feature() < 21, "the build JDK's attach client handles a private /tmp");
        try (AttachRun.Target target = AttachRun.Target.start(withPrivateTmp(jdk))) {
            ForkedJvm.Result result = attach(buildJdk(), "--pid", target.pidText());

            assertThat(result.exitCode).as(result.toString()).isEqualTo(10);
            assertThat(result.stderr).contains("JVM " + target.pid + " has its own /tmp").contains("Run the command with Java 21 or later");
        }
    }

    private static Jdk newestJdk() {
        List<Jdk> jdks = Jdk.all();
        Jdk newest = jdks.get(jdks.size() - 1);
        assumeTrue(newest.toString().equals("jdk25"), "needs JDK 25 for an attach client that handles a private /tmp");
        return newest;
    }

    private static boolean canUnshareMounts() throws Exception {
        try {
            Process probe = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                    "mount -t tmpfs apm-it-probe /tmp").redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
