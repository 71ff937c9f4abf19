package dev.apmagent.attach;

import net.bytebuddy.agent.ByteBuddyAgent;

import java.io.File;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;

/**
 * Self-attach: an application starts the agent in its own JVM, first thing in {@code main}, instead of adding
 * {@code -javaagent} to its command line:
 * <pre>{@code
 * public static void main(String[] args) {
 *     ApmAgentAttacher.attach(Collections.singletonMap("service_name", "orders"));
 *     ...
 * }
 * }</pre>
 * The agent jar is found, in this order: the jar given to {@link #attach(File, Map)}; the jar this class was loaded
 * from, when the application has apm-agent.jar itself on its class path; the system property
 * {@value #AGENT_JAR_PROPERTY}. Configuration is handed over the way the attach command does it: a temporary
 * properties file readable by this user only, given as {@code config_file=<path>} and deleted once the agent started.
 * On Java 9+ a JVM may not attach to itself unless started with {@code -Djdk.attach.allowAttachSelf=true};
 * byte-buddy-agent then attaches from a short-lived helper process, which needs a JDK (the jdk.attach module).
 */
public final class ApmAgentAttacher {

    /** System property naming the agent jar when neither the caller nor this class's own jar provides it. */
    public static final String AGENT_JAR_PROPERTY = AttachCommand.AGENT_JAR_PROPERTY;

    private static boolean attached;

    private ApmAgentAttacher() {
    }

    /** Starts the agent in this JVM with its default configuration; see {@link #attach(File, Map)}. */
    public static boolean attach() {
        return attach(null, Collections.<String, String>emptyMap());
    }

    /** Starts the agent in this JVM with these options; see {@link #attach(File, Map)}. */
    public static boolean attach(Map<String, String> config) {
        return attach(null, config);
    }

    /**
     * Starts the agent in this JVM. Idempotent: returns true when this call started the agent, false when it already
     * ran (started by an earlier call, by {@code -javaagent} or by the attach command), in which case nothing is done
     * and {@code config} is ignored.
     *
     * @param agentJar the agent jar, or null to find it as described in the class comment
     * @param config   agent options, such as {@code service_name}; may be empty
     * @throws IllegalStateException when the agent jar cannot be found, or the attach fails; the message says why
     */
    public static synchronized boolean attach(File agentJar, Map<String, String> config) {
        if (attached || System.getProperty(TargetAttacher.STARTED_PROPERTY) != null) {
            return false;
        }
        File jar;
        try {
            jar = AgentJar.locate(agentJar, ApmAgentAttacher.class, AGENT_JAR_PROPERTY);
        } catch (AttachFailure e) {
            throw new IllegalStateException("apm-agent self-attach: " + e.getMessage());
        }
        String pid = ByteBuddyAgent.ProcessProvider.ForCurrentVm.INSTANCE.resolve();
        Path configFile = null;
        try {
            String options = null;
            if (config != null && !config.isEmpty()) {
                configFile = AgentConfigFile.write(config, "apm-agent configuration for the self-attach of JVM " + pid
                        + "; deleted once the agent has started");
                options = AgentConfigFile.agentArgument(configFile.toString());
            }
            ByteBuddyAgent.attach(jar, pid, options);
        } catch (AttachFailure e) {
            throw new IllegalStateException("apm-agent self-attach: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("apm-agent self-attach of " + jar + " to JVM " + pid + " failed: " + rootMessage(e)
                    + " (a JDK is needed: the jdk.attach module on Java 9+, lib/tools.jar on Java 8)", e);
        } finally {
            if (configFile != null) {
                AgentConfigFile.delete(configFile);
            }
        }
        attached = true;
        if (System.getProperty(TargetAttacher.STARTED_PROPERTY) == null) {
            throw new IllegalStateException("apm-agent self-attach: the agent was loaded but did not start; see standard error");
        }
        return true;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == t ? String.valueOf(t.getMessage()) : t.getMessage() + ": " + root;
    }
}
