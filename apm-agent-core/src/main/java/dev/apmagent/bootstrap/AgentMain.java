package dev.apmagent.bootstrap;

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

    private static final AtomicBoolean started = new AtomicBoolean();

    private AgentMain() {
    }

    public static void premain(String agentArgs, Instrumentation instrumentation) {
        start(agentArgs, instrumentation, false);
    }

    public static void agentmain(String agentArgs, Instrumentation instrumentation) {
        start(agentArgs, instrumentation, true);
    }

    /** True once an agent started in this JVM (the attach command uses it through a system property, see Agent). */
    public static boolean isStarted() {
        return started.get();
    }

    private static void start(String agentArgs, Instrumentation instrumentation, boolean runtimeAttach) {
        if (!started.compareAndSet(false, true)) {
            System.err.println("[apm-agent] WARN the agent is already running in this JVM; this "
                    + (runtimeAttach ? "attach" : "-javaagent") + " is ignored");
            return;
        }
        try {
            Agent.start(agentArgs, instrumentation, runtimeAttach, agentJarDirectory());
        } catch (Throwable t) {
            System.err.println("[apm-agent] ERROR the agent failed to start and is disabled; the application runs unchanged: " + t);
            t.printStackTrace();
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
