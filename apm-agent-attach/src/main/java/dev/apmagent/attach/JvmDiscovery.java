package dev.apmagent.attach;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Finds the JVMs this user can attach to. On Linux it reads {@code /proc}: every process of the same user with a JVM
 * library mapped, which also finds JVMs started with {@code -XX:-UsePerfData} or by custom launchers. Elsewhere it
 * asks the Attach API, which lists the JVMs that publish perf data in the temporary directory.
 */
final class JvmDiscovery {

    private final ProcFs procFs;
    private final AttachApi api;
    private final long selfPid;
    /**
     * What earlier discoveries ({@code --continuous}) found per pid, so that a known process costs a read of its small
     * {@code cmdline} and {@code stat} instead of its memory maps: the process's identity (start time and command line)
     * and its description, or null for a process that is not a JVM. A process that execs (a start script that becomes
     * {@code java}) keeps pid and start time but changes its command line, and is looked at again.
     */
    private final Map<Long, Known> known = new HashMap<Long, Known>();

    private static final class Known {
        final String identity;
        final JvmProcess jvm;

        Known(String identity, JvmProcess jvm) {
            this.identity = identity;
            this.jvm = jvm;
        }
    }

    JvmDiscovery(ProcFs procFs, AttachApi api, long selfPid) {
        this.procFs = procFs;
        this.api = api;
        this.selfPid = selfPid;
    }

    /** Every JVM of this user except the one running this command, by ascending pid. */
    List<JvmProcess> discover() {
        List<JvmProcess> jvms = new ArrayList<JvmProcess>();
        if (procFs != null) {
            int self = procFs.selfUid();
            List<Long> pids = procFs.pids();
            for (Long pid : pids) {
                if (pid != selfPid && procFs.uid(pid) == self) {
                    JvmProcess jvm = describeIfNewOrJvm(pid);
                    if (jvm != null && !isAttachTool(jvm)) {
                        jvms.add(jvm);
                    }
                }
            }
            known.keySet().retainAll(new HashSet<Long>(pids));
            return jvms;
        }
        if (api != null) {
            for (AttachApi.Descriptor descriptor : api.list()) {
                long pid = parsePid(descriptor.id);
                JvmProcess jvm = JavaCommandLine.parseDisplayName(pid, descriptor.displayName);
                if (pid > 0 && pid != selfPid && !isAttachTool(jvm)) {
                    jvms.add(jvm);
                }
            }
        }
        Collections.sort(jvms, (a, b) -> Long.compare(a.pid(), b.pid()));
        return jvms;
    }

    /** The JVM with this pid as far as it can be described; a bare description when nothing can be read. */
    JvmProcess describe(long pid) {
        if (procFs != null) {
            JvmProcess jvm = describeIfJvm(pid);
            if (jvm != null) {
                return jvm;
            }
            List<String> cmdline = procFs.cmdline(pid);
            return new JvmProcess(pid, cmdline.isEmpty() ? "" : cmdline.get(0), new ArrayList<String>(), new ArrayList<String>(),
                    JvmProcess.AgentPresence.UNKNOWN);
        }
        if (api != null) {
            for (AttachApi.Descriptor descriptor : api.list()) {
                if (parsePid(descriptor.id) == pid) {
                    return JavaCommandLine.parseDisplayName(pid, descriptor.displayName);
                }
            }
        }
        return new JvmProcess(pid, "", new ArrayList<String>(), new ArrayList<String>(), JvmProcess.AgentPresence.UNKNOWN);
    }

    private JvmProcess describeIfNewOrJvm(long pid) {
        List<String> cmdline = procFs.cmdline(pid);
        String identity = procFs.startTime(pid) + "\u0000" + cmdline;
        Known previous = known.get(pid);
        if (previous != null && previous.identity.equals(identity)) {
            return previous.jvm;
        }
        JvmProcess jvm = describeIfJvm(pid);
        // a java launcher that has not loaded the JVM library yet is looked at again next time
        if (jvm != null || cmdline.isEmpty() || !JavaCommandLine.isJavaLauncher(cmdline.get(0))) {
            known.put(pid, new Known(identity, jvm));
        }
        return jvm;
    }

    private JvmProcess describeIfJvm(long pid) {
        ProcFs.JvmKind kind = procFs.jvmKind(pid);
        if (kind == null || kind == ProcFs.JvmKind.NONE) {
            return null;
        }
        List<String> cmdline = procFs.cmdline(pid);
        return cmdline.isEmpty() ? null : JavaCommandLine.parse(pid, cmdline);
    }

    /** Adds the Java version from the JVM's perf data, which reading does not disturb the JVM. */
    JvmProcess withJavaVersion(JvmProcess jvm) {
        if (procFs == null) {
            return jvm;
        }
        String version = procFs.perfData(jvm.pid()).get("java.property.java.version");
        return version == null ? jvm : jvm.withJavaVersion(version);
    }

    /**
     * Tells whether the agent runs in the JVM where that is cheap: from {@code -javaagent} on its command line, or by
     * asking the JVM when its attach listener already runs (then the question sends no signal and starts no thread).
     * Otherwise the answer stays unknown rather than disturbing the JVM.
     */
    JvmProcess withAgentPresence(JvmProcess jvm) {
        if (jvm.agent() == JvmProcess.AgentPresence.JAVAAGENT || api == null || procFs == null
                || !procFs.hasAttachListener(jvm.pid())) {
            return jvm;
        }
        try {
            AttachApi.Session session = api.attach(jvm.pid(), true);
            try {
                Properties properties = session.systemProperties();
                return jvm.withAgent(properties.getProperty(TargetAttacher.STARTED_PROPERTY) != null
                        ? JvmProcess.AgentPresence.ATTACHED : JvmProcess.AgentPresence.ABSENT);
            } finally {
                session.close();
            }
        } catch (AttachFailure e) {
            return jvm;
        }
    }

    /**
     * Other runs of the attach command and byte-buddy-agent's short-lived attach helper (self-attach on Java 9+) are
     * tools, not applications: {@code --include-all} and {@code --continuous} must not attach to them.
     */
    static boolean isAttachTool(JvmProcess jvm) {
        String main = jvm.main();
        if (main.endsWith("net.bytebuddy.agent.Attacher")) {
            return true;
        }
        String file = main.substring(main.lastIndexOf('/') + 1);
        return file.startsWith("apm-agent") && file.endsWith(".jar") && !jvm.appArgs().isEmpty() && jvm.appArgs().get(0).equals("attach");
    }

    static long parsePid(String id) {
        try {
            return Long.parseLong(id.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
