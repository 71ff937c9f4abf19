/**
 * Attaching the agent to running JVMs: the {@code attach} command of the agent jar ({@link dev.apmagent.attach.AttachCommand})
 * and the self-attach API for applications ({@link dev.apmagent.attach.ApmAgentAttacher}). This code runs in the JVM of
 * the command line or, for self-attach, once at the start of the application's {@code main}; it is never on a hot path
 * and never runs inside the agent. It talks to target JVMs only through the JDK Attach API, reached through
 * byte-buddy-agent, and reads {@code /proc} on Linux to check a target before attaching. It must not depend on
 * apm-agent-core: the only contract with the agent is the jar's {@code Agent-Class}, the agent argument
 * {@code config_file=<path>} and the system property {@code dev.apmagent.started}.
 */
package dev.apmagent.attach;
