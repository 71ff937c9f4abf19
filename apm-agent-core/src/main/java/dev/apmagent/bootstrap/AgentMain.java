package dev.apmagent.bootstrap;

import dev.apmagent.report.AgentVersion;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The JVM's entry points: {@code premain} for {@code -javaagent}, {@code agentmain} for attaching to a running JVM.
 * Both hand over to {@link Agent#start}. A second start in the same JVM (attached twice, or attached while started
 * with {@code -javaagent}) is refused, so instrumentation is never installed twice. Nothing thrown here ever
 * reaches the JVM: a failing agent must not stop the application from starting.
 */
public final class AgentMain {

    /** Set in the target JVM once an agent started there; the attach command reads it to refuse a second attach. */
    public static final String STARTED_PROPERTY = "dev.apmagent.started";

    private static final AtomicBoolean started = new AtomicBoolean();

    private AgentMain() {
    }

    public static void premain(String agentArgs, Instrumentation instrumentation) {
        start(agentArgs, instrumentation, false);
    }

    public static void agentmain(String agentArgs, Instrumentation instrumentation) {
        start(agentArgs, instrumentation, true);
    }

    private static void start(String agentArgs, Instrumentation instrumentation, boolean runtimeAttach) {
        if (!started.compareAndSet(false, true)) {
            System.err.println("[apm-agent] WARN the agent is already running in this JVM; this "
                    + (runtimeAttach ? "attach" : "-javaagent") + " is ignored");
            return;
        }
        try {
            System.setProperty(STARTED_PROPERTY, AgentVersion.get() + (runtimeAttach ? " attach" : " javaagent"));
        } catch (Throwable ignored) {
            // a security manager may forbid it; the in-JVM guard above still holds
        }
        try {
            Agent.start(agentArgs, instrumentation, runtimeAttach, agentJarDirectory());
        } catch (Throwable t) {
            System.err.println("[apm-agent] ERROR the agent failed to start and is disabled; the application runs unchanged: " + t);
            t.printStackTrace();
            try {
                System.setProperty(STARTED_PROPERTY, AgentVersion.get() + (runtimeAttach ? " attach failed" : " javaagent failed"));
            } catch (Throwable ignored) {
                // nothing more to tell
            }
        }
    }

    private static File agentJarDirectory() {
        try {
            URL location = AgentMain.class.getProtectionDomain().getCodeSource().getLocation();
            File jar = new File(location.toURI());
            return jar.isFile() ? jar.getParentFile() : jar;
        } catch (Throwable t) {
            return null;
        }
    }
}
