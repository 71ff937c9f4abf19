package dev.apmagent.it.attach;

import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import dev.apmagent.it.TestPaths;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Helpers of the attach integration tests: target JVMs to attach to, and the attach command of the real agent jar. */
final class AttachRun {

    private static final Pattern READY = Pattern.compile("ready pid=(\\d+)");

    private AttachRun() {
    }

    static Jdk buildJdk() {
        return Jdk.all().get(0);
    }

    /** {@code java -jar apm-agent.jar attach args...} on the given JDK, to completion. */
    static ForkedJvm.Result attach(Jdk jdk, String... args) throws IOException, InterruptedException {
        return command(jdk, args).timeoutSeconds(90).run();
    }

    static ForkedJvm command(Jdk jdk, String... args) {
        List<String> all = new ArrayList<>();
        all.add("attach");
        all.addAll(Arrays.asList(args));
        return ForkedJvm.on(jdk).jar(TestPaths.agentJar(), all.toArray(new String[0]));
    }

    /** A running {@link AttachTargetApp}; close it to stop it. */
    static final class Target implements AutoCloseable {
        final ForkedJvm.Running jvm;
        final long pid;

        private Target(ForkedJvm.Running jvm, long pid) {
            this.jvm = jvm;
            this.pid = pid;
        }

        static Target start(ForkedJvm forked) throws IOException, InterruptedException {
            ForkedJvm.Running jvm = forked.main(AttachTargetApp.class, "--token-" + System.nanoTime()).start();
            try {
                Matcher ready = READY.matcher(jvm.awaitStdout("ready pid=", 60));
                if (!ready.find()) {
                    throw new AssertionError("no pid printed: " + jvm);
                }
                return new Target(jvm, Long.parseLong(ready.group(1)));
            } catch (RuntimeException | Error | IOException | InterruptedException e) {
                jvm.close();
                throw e;
            }
        }

        String pidText() {
            return Long.toString(pid);
        }

        /** Waits for the agent's start to show in the target and returns the property's value. */
        String awaitAgent() throws IOException, InterruptedException {
            String out = jvm.awaitStdout("agent: ", 60);
            int at = out.indexOf("agent: ");
            return out.substring(at + "agent: ".length(), out.indexOf('\n', at)).trim();
        }

        @Override
        public void close() throws IOException, InterruptedException {
            if (jvm.process.isAlive()) {
                jvm.stop();
            }
            jvm.close();
        }
    }
}
