package dev.apmagent.attach;

import java.util.Collections;
import java.util.List;

/** A running JVM as the attach command sees it before attaching: its pid and what it was started with. */
final class JvmProcess {

    /** Whether the agent runs in a JVM, as far as it can be told without attaching. */
    enum AgentPresence {
        JAVAAGENT("yes (-javaagent)"),
        ATTACHED("yes"),
        ABSENT("no"),
        UNKNOWN("?");

        final String label;

        AgentPresence(String label) {
            this.label = label;
        }
    }

    private final long pid;
    private final String main;
    private final List<String> vmArgs;
    private final List<String> appArgs;
    private final AgentPresence agent;
    private final String javaVersion;

    JvmProcess(long pid, String main, List<String> vmArgs, List<String> appArgs, AgentPresence agent) {
        this(pid, main, vmArgs, appArgs, agent, "");
    }

    private JvmProcess(long pid, String main, List<String> vmArgs, List<String> appArgs, AgentPresence agent, String javaVersion) {
        this.javaVersion = javaVersion == null ? "" : javaVersion;
        this.pid = pid;
        this.main = main == null ? "" : main;
        this.vmArgs = Collections.unmodifiableList(vmArgs);
        this.appArgs = Collections.unmodifiableList(appArgs);
        this.agent = agent;
    }

    long pid() {
        return pid;
    }

    /** The main class ({@code module/class} for {@code -m}) or the jar of {@code -jar}; empty when unknown. */
    String main() {
        return main;
    }

    /** Options given to the JVM before the main class or jar, such as {@code -Xmx1g} or {@code -Dkey=value}. */
    List<String> vmArgs() {
        return vmArgs;
    }

    /** Arguments after the main class or jar. */
    List<String> appArgs() {
        return appArgs;
    }

    AgentPresence agent() {
        return agent;
    }

    /** The JVM's {@code java.version} when known without attaching (from its perf data); empty otherwise. */
    String javaVersion() {
        return javaVersion;
    }

    JvmProcess withAgent(AgentPresence presence) {
        return new JvmProcess(pid, main, vmArgs, appArgs, presence, javaVersion);
    }

    JvmProcess withJavaVersion(String version) {
        return new JvmProcess(pid, main, vmArgs, appArgs, agent, version);
    }

    @Override
    public String toString() {
        return pid + " " + main;
    }
}
