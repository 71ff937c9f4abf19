package dev.apmagent.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a main class in a separate JVM, optionally with the agent, and captures what it printed and its exit code. */
public final class ForkedJvm {

    private final Jdk jdk;
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> classPath = new ArrayList<>();
    private String mainClass;
    private final List<String> args = new ArrayList<>();
    private long timeoutSeconds = 120;

    private ForkedJvm(Jdk jdk) {
        this.jdk = jdk;
        classPath.add(TestPaths.testClasses().toString());
    }

    public static ForkedJvm on(Jdk jdk) {
        return new ForkedJvm(jdk);
    }

    /** Adds {@code -javaagent:apm-agent.jar[=options]}. */
    public ForkedJvm withAgent(String agentOptions) {
        String option = "-javaagent:" + TestPaths.agentJar();
        jvmArgs.add(agentOptions == null || agentOptions.isEmpty() ? option : option + "=" + agentOptions);
        return this;
    }

    public ForkedJvm jvmArg(String arg) {
        jvmArgs.add(arg);
        return this;
    }

    public ForkedJvm classPath(Path entry) {
        classPath.add(entry.toString());
        return this;
    }

    public ForkedJvm main(Class<?> type, String... mainArgs) {
        this.mainClass = type.getName();
        this.args.addAll(Arrays.asList(mainArgs));
        return this;
    }

    public ForkedJvm timeoutSeconds(long seconds) {
        this.timeoutSeconds = seconds;
        return this;
    }

    public Result run() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(jdk.javaExecutable().toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(mainClass);
        command.addAll(args);
        Path out = Files.createTempFile("forked-out", ".txt");
        Path err = Files.createTempFile("forked-err", ".txt");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().keySet().removeIf(key -> key.startsWith("ELASTIC_APM_"));
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("forked JVM did not finish within " + timeoutSeconds + " s: " + command
                        + "\nstdout:\n" + read(out) + "\nstderr:\n" + read(err));
            }
            return new Result(command, process.exitValue(), read(out), read(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String read(Path path) throws IOException {
        return new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
    }

    /** What a forked JVM did. */
    public static final class Result {
        public final List<String> command;
        public final int exitCode;
        public final String stdout;
        public final String stderr;

        Result(List<String> command, int exitCode, String stdout, String stderr) {
            this.command = command;
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        @Override
        public String toString() {
            return "exit " + exitCode + " of " + command + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }
}
