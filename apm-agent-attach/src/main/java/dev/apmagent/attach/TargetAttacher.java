package dev.apmagent.attach;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Attaches the agent to one JVM, in this order: check what {@code /proc} can tell without touching the process
 * (exists, same user, is a JVM, attach not disabled, ready for the attach signal), connect, read the target's system
 * properties (agent already running? Java version supported?), load the agent with its configuration file, and read
 * the properties again to confirm that the agent started. The checks come first because attaching to a process that
 * is not a JVM, or is not ready, sends it a SIGQUIT, which kills a process that does not handle it.
 */
final class TargetAttacher {

    static final String STARTED_PROPERTY = "dev.apmagent.started";
    /** The agent may end the property's value with this when its start failed after the property was set. */
    static final String FAILED_SUFFIX = " failed";
    private static final long STARTUP_WAIT_MILLIS = 5000;

    private final ProcFs procFs;
    private final AttachApi api;
    private final File agentJar;
    private final Map<String, String> config;
    private final Reporter reporter;

    /** Where the attacher says what it does, for {@code --verbose}. */
    interface Reporter {
        void detail(String message);
    }

    TargetAttacher(ProcFs procFs, AttachApi api, File agentJar, Map<String, String> config, Reporter reporter) {
        this.procFs = procFs;
        this.api = api;
        this.agentJar = agentJar;
        this.config = config;
        this.reporter = reporter;
    }

    /** Whether the JVM can be signalled to start its attach listener; false while it is still starting. */
    boolean isReady(long pid) {
        if (procFs == null || procFs.jvmKind(pid) != ProcFs.JvmKind.HOTSPOT || procFs.hasAttachListener(pid)) {
            return true;
        }
        return Boolean.TRUE.equals(procFs.catchesSigquit(pid));
    }

    /** Attaches and returns a one-line description of the JVM that now runs the agent. */
    String attach(long pid) throws AttachFailure {
        boolean knownJvm = false;
        if (procFs != null) {
            checkProcess(pid);
            knownJvm = true;
        }
        reporter.detail("connecting to JVM " + pid);
        AttachApi.Session session;
        try {
            session = api.attach(pid, knownJvm);
        } catch (AttachFailure e) {
            throw explainOwnTmp(pid, e);
        }
        try {
            Properties before = session.systemProperties();
            String running = before.getProperty(STARTED_PROPERTY);
            if (running != null) {
                throw new AttachFailure(ExitCode.ALREADY_ATTACHED, "the agent already runs in JVM " + pid + " (apm-agent " + running
                        + "); nothing was done");
            }
            String javaVersion = before.getProperty("java.specification.version");
            int feature = JavaVersion.feature(javaVersion);
            String runtime = before.getProperty("java.vm.name", "JVM") + " " + before.getProperty("java.version", "?");
            if (!JavaVersion.isSupported(feature)) {
                throw new AttachFailure(ExitCode.UNSUPPORTED_JAVA, "JVM " + pid + " runs Java " + javaVersion + " (" + runtime
                        + "); the agent supports Java " + JavaVersion.MIN_SUPPORTED + " to " + JavaVersion.MAX_SUPPORTED);
            }
            load(session, pid);
            String started = session.systemProperties().getProperty(STARTED_PROPERTY);
            if (started == null || started.endsWith(FAILED_SUFFIX)) {
                throw new AttachFailure(ExitCode.ATTACH_FAILED, "the agent was loaded into JVM " + pid
                        + " but did not start; see the JVM's standard error or the agent log");
            }
            return "Java " + feature + ", " + runtime + ", apm-agent " + started;
        } finally {
            session.close();
        }
    }

    private void load(AttachApi.Session session, long pid) throws AttachFailure {
        TargetFiles files = procFs == null ? TargetFiles.local() : TargetFiles.of(procFs.root(), pid);
        String jar = files.agentJar(agentJar);
        if (!jar.equals(agentJar.getAbsolutePath())) {
            reporter.detail("JVM " + pid + " does not see " + agentJar + "; copied it to " + files.hostDirectory() + ", where it sees " + jar);
        }
        Path configFile = null;
        String options = null;
        try {
            if (!config.isEmpty()) {
                configFile = AgentConfigFile.write(files.hostDirectory(), config, "apm-agent configuration for JVM " + pid
                        + ", written by the attach command; deleted once the agent has started");
                options = AgentConfigFile.agentArgument(files.targetPath(configFile));
                reporter.detail("configuration for JVM " + pid + " (" + config.size() + " options) in " + configFile);
            }
            reporter.detail("loading " + jar + " into JVM " + pid + (options == null ? "" : " with " + options));
            session.loadAgent(jar, options);
        } finally {
            if (configFile != null) {
                // loadAgent returns after agentmain, which reads the file before it returns
                AgentConfigFile.delete(configFile);
            }
        }
    }

    /** What can be found out about the process without attaching; Linux only. */
    private void checkProcess(long pid) throws AttachFailure {
        if (!procFs.exists(pid)) {
            throw new AttachFailure(ExitCode.NO_SUCH_PROCESS, "no process with pid " + pid);
        }
        int uid = procFs.uid(pid);
        int self = procFs.selfUid();
        if (uid != self) {
            String user = procFs.userName(pid);
            throw new AttachFailure(ExitCode.OTHER_USER, "process " + pid + " belongs to user '" + user + "' (uid " + uid
                    + ") but this command runs as '" + procFs.selfUserName() + "' (uid " + self + "): the Attach API only connects"
                    + " to JVMs of the same user. Run the command as that user, for example: sudo -u " + user
                    + " java -jar apm-agent.jar attach --pid " + pid);
        }
        ProcFs.JvmKind kind = procFs.jvmKind(pid);
        List<String> cmdline = procFs.cmdline(pid);
        if (kind == ProcFs.JvmKind.NONE) {
            throw new AttachFailure(ExitCode.NOT_A_JVM, "process " + pid + " (" + (cmdline.isEmpty() ? "?" : cmdline.get(0))
                    + ") is not a JVM: no libjvm is loaded in it");
        }
        List<String> options = effectiveJvmOptions(cmdline, procFs.environ(pid), procFs.perfData(pid));
        if (JavaCommandLine.disablesAttach(options)) {
            throw new AttachFailure(ExitCode.ATTACH_DISABLED, "JVM " + pid + " was started with -XX:+DisableAttachMechanism: it refuses"
                    + " every attach. Restart it without that option, or with -javaagent:apm-agent.jar");
        }
        if (kind == ProcFs.JvmKind.HOTSPOT && !isReady(pid)) {
            if (options.contains("-Xrs")) {
                throw new AttachFailure(ExitCode.ATTACH_DISABLED, "JVM " + pid + " runs with -Xrs: it does not handle SIGQUIT, which"
                        + " the Attach API needs to start the JVM's attach listener. Restart it without -Xrs, or with -javaagent");
            }
            reporter.detail("JVM " + pid + " does not handle SIGQUIT yet; waiting for it to finish starting");
            long deadline = System.nanoTime() + STARTUP_WAIT_MILLIS * 1_000_000L;
            while (!isReady(pid)) {
                if (System.nanoTime() - deadline > 0 || !procFs.exists(pid) || Thread.currentThread().isInterrupted()) {
                    throw new AttachFailure(ExitCode.ATTACH_DISABLED, "JVM " + pid + " does not handle SIGQUIT, which the Attach"
                            + " API needs to start its attach listener (still starting after " + STARTUP_WAIT_MILLIS / 1000
                            + " s, or started with -Xrs)");
                }
                sleep(100);
            }
        }
    }

    /**
     * A JVM with its own /tmp (a container, systemd's PrivateTmp) creates its attach socket there. Attach clients before
     * Java 21 look for it in their own /tmp when the JVM is in the same pid namespace, and time out. Says so instead
     * of suggesting that the JVM disabled attaching.
     */
    private AttachFailure explainOwnTmp(long pid, AttachFailure failure) {
        if (procFs == null || failure.exitCode != ExitCode.ATTACH_DISABLED || !procFs.hasAttachListener(pid)
                || Files.exists(Paths.get("/tmp", ".java_pid" + procFs.namespacePid(pid)))) {
            return failure;
        }
        return new AttachFailure(ExitCode.SETUP, "JVM " + pid + " has its own /tmp (a container, or a service with a private /tmp)"
                + " and the Attach API of the Java running this command (" + System.getProperty("java.version") + ") looks for the"
                + " JVM's attach socket in this process's /tmp. Run the command with Java 21 or later, or inside the JVM's"
                + " namespaces (nsenter -t " + pid + " -m -p java -jar apm-agent.jar attach --pid <its pid there>)", failure.getCause());
    }

    /**
     * The JVM options in the order the JVM applies them, the last one winning. The JVM's own perf data has them all
     * ({@code sun.rt.jvmFlags} from a flags file, then {@code java.rt.vmArgs}, which includes the environment's options
     * and {@code @argfiles}); without perf data they are pieced together: {@code JAVA_TOOL_OPTIONS},
     * {@code JDK_JAVA_OPTIONS} (java launcher, Java 9+), the command line, then {@code _JAVA_OPTIONS}.
     */
    static List<String> effectiveJvmOptions(List<String> cmdline, Map<String, String> environment, Map<String, String> perfData) {
        List<String> options = new ArrayList<String>();
        String vmArgs = perfData == null ? null : perfData.get("java.rt.vmArgs");
        if (vmArgs != null) {
            options.addAll(JavaCommandLine.splitOptions(perfData.get("sun.rt.jvmFlags")));
            options.addAll(JavaCommandLine.splitOptions(vmArgs));
            return options;
        }
        if (environment != null) {
            options.addAll(JavaCommandLine.splitOptions(environment.get("JAVA_TOOL_OPTIONS")));
            options.addAll(JavaCommandLine.splitOptions(environment.get("JDK_JAVA_OPTIONS")));
        }
        options.addAll(JavaCommandLine.parse(0, cmdline).vmArgs());
        if (environment != null) {
            options.addAll(JavaCommandLine.splitOptions(environment.get("_JAVA_OPTIONS")));
        }
        return options;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
