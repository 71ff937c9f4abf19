package dev.apmagent.attach;

import net.bytebuddy.agent.ByteBuddyAgent;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * The JDK Attach API ({@code com.sun.tools.attach.VirtualMachine}, or OpenJ9's {@code com.ibm.tools.attach}), found by
 * byte-buddy-agent's {@link ByteBuddyAgent.AttachmentProvider} (the {@code jdk.attach} module on Java 9+,
 * {@code tools.jar} on Java 8) and called by reflection, so that this code compiles for Java 8 and runs on any JDK.
 * One {@link Session} per target checks the target's system properties and loads the agent over the same connection.
 */
final class AttachApi {

    private final Class<?> virtualMachine;

    private AttachApi(Class<?> virtualMachine) {
        this.virtualMachine = virtualMachine;
    }

    static AttachApi load() throws AttachFailure {
        ByteBuddyAgent.AttachmentProvider.Accessor accessor;
        try {
            accessor = ByteBuddyAgent.AttachmentProvider.DEFAULT.attempt();
        } catch (RuntimeException | LinkageError e) {
            accessor = null;
        }
        if (accessor == null || !accessor.isAvailable()) {
            throw new AttachFailure(ExitCode.SETUP, "the Java runtime running this command (" + System.getProperty("java.home")
                    + ") has no Attach API: run the command with a JDK (Java 9+ with the jdk.attach module, or Java 8 with lib/tools.jar)");
        }
        return new AttachApi(accessor.getVirtualMachineType());
    }

    /** A JVM the Attach API lists: its id (the pid) and display name (main class or jar and arguments). */
    static final class Descriptor {
        final String id;
        final String displayName;

        Descriptor(String id, String displayName) {
            this.id = id;
            this.displayName = displayName == null ? "" : displayName;
        }
    }

    /** The JVMs of this user the Attach API can see (HotSpot lists those with perf data in the temp directory). */
    List<Descriptor> list() {
        try {
            Method list = virtualMachine.getMethod("list");
            // call through the public API types: the implementations live in packages the JDK does not export
            Class<?> descriptorType = Class.forName(virtualMachine.getName() + "Descriptor", false, virtualMachine.getClassLoader());
            Method id = descriptorType.getMethod("id");
            Method displayName = descriptorType.getMethod("displayName");
            List<?> descriptors = (List<?>) list.invoke(null);
            List<Descriptor> result = new ArrayList<Descriptor>();
            for (Object descriptor : descriptors) {
                result.add(new Descriptor((String) id.invoke(descriptor), (String) displayName.invoke(descriptor)));
            }
            return result;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Collections.emptyList();
        }
    }

    /**
     * Connects to a JVM. A failure is mapped to the most likely cause; the caller has already ruled out most causes
     * where the platform allows it (see {@link TargetAttacher}), so this mapping is for what only the attempt reveals.
     */
    Session attach(long pid, boolean knownJvm) throws AttachFailure {
        try {
            Object vm = virtualMachine.getMethod("attach", String.class).invoke(null, Long.toString(pid));
            return new Session(virtualMachine, vm);
        } catch (InvocationTargetException e) {
            throw mapAttachFailure(pid, knownJvm, e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new AttachFailure(ExitCode.SETUP, "cannot use the Attach API (" + virtualMachine.getName() + "): " + e, e);
        }
    }

    static AttachFailure mapAttachFailure(long pid, boolean knownJvm, Throwable cause) {
        String message = String.valueOf(cause.getMessage());
        String type = cause.getClass().getSimpleName();
        String lower = message.toLowerCase();
        if (lower.contains("no such process")) {
            return new AttachFailure(ExitCode.NO_SUCH_PROCESS, "no process with pid " + pid, cause);
        }
        if (lower.contains("permission denied") || lower.contains("not secure") || lower.contains("operation not permitted")
                || lower.contains("does not match")) {
            return new AttachFailure(ExitCode.OTHER_USER, "not allowed to attach to JVM " + pid + " (" + message
                    + "): the Attach API only connects to JVMs of the same user; run the command as the JVM's user", cause);
        }
        if (type.equals("AttachNotSupportedException") || lower.contains("doesn't respond") || lower.contains("not loaded")
                || lower.contains("unable to open socket")) {
            if (knownJvm) {
                return new AttachFailure(ExitCode.ATTACH_DISABLED, "JVM " + pid + " does not accept the attach (" + message
                        + "): it was probably started with -XX:+DisableAttachMechanism (perhaps in an @argfile or a launcher"
                        + " configuration), or it is too busy to answer", cause);
            }
            return new AttachFailure(ExitCode.NOT_A_JVM, "process " + pid + " is not a JVM the Attach API can reach (" + message + ")", cause);
        }
        return new AttachFailure(ExitCode.ATTACH_FAILED, "attaching to JVM " + pid + " failed: " + type + ": " + message, cause);
    }

    /** One connection to a target JVM; close it to detach. */
    static final class Session implements AutoCloseable {
        private final Class<?> api;
        private final Object vm;

        private Session(Class<?> api, Object vm) {
            this.api = api;
            this.vm = vm;
        }

        Properties systemProperties() throws AttachFailure {
            try {
                return (Properties) call("getSystemProperties");
            } catch (Exception e) {
                throw new AttachFailure(ExitCode.ATTACH_FAILED, "cannot read the target's system properties: " + e, e);
            }
        }

        /** Loads the agent jar; returns once the agent's {@code agentmain} has returned in the target. */
        void loadAgent(String agentJar, String options) throws AttachFailure {
            try {
                Method load = api.getMethod("loadAgent", String.class, String.class);
                load.invoke(vm, agentJar, options);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                String type = cause.getClass().getSimpleName();
                String hint = type.equals("AgentInitializationException")
                        ? ": the agent threw in agentmain; see the target's standard error and agent log"
                        : type.equals("AgentLoadException")
                        ? ": the target could not load the agent jar (is it readable by the target's user, and a valid agent jar?)"
                        : "";
                throw new AttachFailure(ExitCode.ATTACH_FAILED, "loading the agent failed: " + type + ": " + cause.getMessage() + hint, cause);
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new AttachFailure(ExitCode.ATTACH_FAILED, "loading the agent failed: " + e, e);
            }
        }

        private Object call(String method) throws Exception {
            Method m = api.getMethod(method);
            try {
                return m.invoke(vm);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                throw cause instanceof Exception ? (Exception) cause : new RuntimeException(cause);
            }
        }

        @Override
        public void close() {
            try {
                call("detach");
            } catch (Exception ignored) {
                // the connection is gone either way
            }
        }
    }
}
