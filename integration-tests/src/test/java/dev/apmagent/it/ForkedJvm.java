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
    private final List<String> commandPrefix = new ArrayList<>();
    private Path jar;
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

    /** Replaces the whole class path (by default this module's test classes) with {@code entries}. */
    public ForkedJvm classPathOnly(Path... entries) {
        classPath.clear();
        for (Path entry : entries) {
            classPath.add(entry.toString());
        }
        return this;
    }

    public ForkedJvm main(Class<?> type, String... mainArgs) {
        this.mainClass = type.getName();
        this.args.addAll(Arrays.asList(mainArgs));
        return this;
    }

    /** Runs {@code java -jar jar jarArgs...} instead of a main class (no class path is added). */
    public ForkedJvm jar(Path jar, String... jarArgs) {
        this.jar = jar;
        this.args.addAll(Arrays.asList(jarArgs));
        return this;
    }

    /** Words put before the java command, such as {@code setpriv --reuid=65534 ...} to run it as another user. */
    public ForkedJvm commandPrefix(List<String> words) {
        commandPrefix.addAll(words);
        return this;
    }

    public ForkedJvm timeoutSeconds(long seconds) {
        this.timeoutSeconds = seconds;
        return this;
    }

    private List<String> command() {
        List<String> command = new ArrayList<>(commandPrefix);
        command.add(jdk.javaExecutable().toString());
        command.addAll(jvmArgs);
        if (jar != null) {
            command.add("-jar");
            command.add(jar.toString());
        } else {
            command.add("-cp");
            command.add(String.join(File.pathSeparator, classPath));
            command.add(mainClass);
        }
        command.addAll(args);
        return command;
    }

    /**
     * Starts the JVM and returns at once; the caller stops it with {@link Running#stop()} (closes its standard input,
     * then waits, then kills it) or {@link Running#terminate()} (SIGTERM).
     */
    public Running start() throws IOException {
        List<String> command = command();
        Path out = Files.createTempFile("forked-out", ".txt");
        Path err = Files.createTempFile("forked-err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().keySet().removeIf(key -> key.startsWith("ELASTIC_APM_"));
        return new Running(command, builder.start(), out, err);
    }

    public Result run() throws IOException, InterruptedException {
        List<String> command = command();
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

    /** A forked JVM that is still running: read what it printed so far, wait for a line, stop it. */
    public static final class Running implements AutoCloseable {
        public final List<String> command;
        public final Process process;
        private final Path out;
        private final Path err;

        Running(List<String> command, Process process, Path out, Path err) {
            this.command = command;
            this.process = process;
            this.out = out;
            this.err = err;
        }

        public String stdout() throws IOException {
            return read(out);
        }

        public String stderr() throws IOException {
            return read(err);
        }

        /** Waits until standard output contains {@code text}; fails with everything printed so far if it does not. */
        public String awaitStdout(String text, long seconds) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (true) {
                String printed = stdout();
                if (printed.contains(text)) {
                    return printed;
                }
                if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                    throw new AssertionError("'" + text + "' not printed " + (process.isAlive() ? "within " + seconds + " s" : "before exit "
                            + process.exitValue()) + ": " + this);
                }
                Thread.sleep(50);
            }
        }

        /** Closes the JVM's standard input (test applications exit on that), then kills it if it has not exited in 20 s. */
        public int stop() throws IOException, InterruptedException {
            process.getOutputStream().close();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
            return process.exitValue();
        }

        /** Sends SIGTERM and waits for the exit code. */
        public int terminate() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            return process.waitFor();
        }

        @Override
        public void close() throws IOException, InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor();
            }
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }

        @Override
        public String toString() {
            try {
                return command + "\n--- stdout\n" + stdout() + "--- stderr\n" + stderr();
            } catch (IOException e) {
                return command + " (output unreadable: " + e + ")";
            }
        }
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
