package dev.apmagent.attach;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Files handed to a target JVM, placed where that JVM can see them. A JVM may see another file system than the attach
 * command: a container, or a service with a private {@code /tmp} (systemd's PrivateTmp). On Linux,
 * {@code /proc/<pid>/root} is the target's own view of the file system, the way the JDK's Attach API finds the
 * target's socket: files go to {@code /proc/<pid>/root/tmp} and the target is given {@code /tmp/<name>}. The agent jar
 * is passed as is when the target sees the same file at the same path, and is copied to the target's {@code /tmp}
 * otherwise (and left there: the JVM reads classes from it as long as it runs).
 */
final class TargetFiles {

    private final Path hostDir;
    private final String targetDir;
    private final Path targetRoot;

    private TargetFiles(Path hostDir, String targetDir, Path targetRoot) {
        this.hostDir = hostDir;
        this.targetDir = targetDir;
        this.targetRoot = targetRoot;
    }

    /** The target's {@code /tmp} through {@code /proc} when usable; this JVM's temporary directory otherwise. */
    static TargetFiles of(Path procRoot, long pid) {
        if (procRoot != null) {
            Path root = procRoot.resolve(Long.toString(pid)).resolve("root");
            Path tmp = root.resolve("tmp");
            if (Files.isDirectory(tmp) && Files.isWritable(tmp)) {
                return new TargetFiles(tmp, "/tmp", root);
            }
        }
        return local();
    }

    /** Files for this very JVM (self-attach, or no {@code /proc}). */
    static TargetFiles local() {
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        return new TargetFiles(tmp, tmp.toString(), null);
    }

    /** Where this process writes files for the target. */
    Path hostDirectory() {
        return hostDir;
    }

    /** The path under which the target sees a file written to {@link #hostDirectory()}. */
    String targetPath(Path hostFile) {
        return targetDir.endsWith("/") || targetDir.endsWith(File.separator)
                ? targetDir + hostFile.getFileName() : targetDir + "/" + hostFile.getFileName();
    }

    /** The agent jar's path as the target sees it, copying the jar into the target's {@code /tmp} when it cannot. */
    String agentJar(File agentJar) throws AttachFailure {
        Path jar = agentJar.toPath().toAbsolutePath();
        if (targetRoot == null || seesSameFile(jar)) {
            return jar.toString();
        }
        try {
            // A fresh file with a random name for every attach: a name anyone can compute, or a copy that is reused,
            // would let another user of a shared /tmp plant a jar that the target then runs as its own user.
            // createTempFile never follows or reuses an existing file; the copy stays, the JVM reads classes from it.
            Path copy = Files.createTempFile(hostDir, "apm-agent-", ".jar");
            Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
            return targetPath(copy);
        } catch (IOException | RuntimeException e) {
            throw new AttachFailure(ExitCode.SETUP, "the target JVM does not see " + jar + " (it runs in a container or with a"
                    + " private /tmp) and copying the agent jar to its /tmp (" + hostDir + ") failed: " + e, e);
        }
    }

    private boolean seesSameFile(Path jar) {
        Path inTarget = targetRoot.resolve(jar.toString().substring(1));
        try {
            return Files.exists(inTarget) && Files.isSameFile(inTarget, jar);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
