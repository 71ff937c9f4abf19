package dev.apmagent.attach;

import net.bytebuddy.agent.ByteBuddyAgent;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar apm-agent.jar attach [options]}: attaches the agent to running JVMs of the same user, by pid or by
 * rules on their main class and JVM options, once or continuously as JVMs start. See {@link #usage()} and
 * docs/attach.md. Results go to standard output, one line per JVM; failures to standard error; the exit code says
 * what failed ({@link ExitCode}).
 */
public final class AttachCommand {

    static final String AGENT_JAR_PROPERTY = "dev.apmagent.agent_jar";
    /** A JVM that is still not ready for the attach signal after this many polls is reported and given up. */
    private static final int MAX_NOT_READY_POLLS = 30;

    private final PrintStream out;
    private final PrintStream err;
    private final AttachArguments arguments;
    private final ProcFs procFs = ProcFs.system();
    private final long selfPid = selfPid();

    private AttachCommand(AttachArguments arguments, PrintStream out, PrintStream err) {
        this.arguments = arguments;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /** Runs the command and returns its exit code (in continuous mode, only when interrupted). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        AttachArguments arguments;
        try {
            arguments = AttachArguments.parse(args);
        } catch (AttachArguments.UsageException e) {
            err.println("error: " + e.getMessage());
            err.println("run 'java -jar apm-agent.jar attach --help' for the options");
            return ExitCode.USAGE.code();
        }
        if (arguments.help) {
            out.print(usage());
            return ExitCode.OK.code();
        }
        try {
            return new AttachCommand(arguments, out, err).execute().code();
        } catch (AttachFailure e) {
            err.println("error: " + e.getMessage());
            return e.exitCode.code();
        }
    }

    private ExitCode execute() throws AttachFailure {
        if (arguments.list) {
            return list();
        }
        File agentJar = AgentJar.locate(arguments.agentJar, AttachCommand.class, AGENT_JAR_PROPERTY);
        detail("agent jar: " + agentJar);
        Map<String, String> config = configuration();
        AttachApi api = AttachApi.load();
        TargetAttacher attacher = new TargetAttacher(procFs, api, agentJar, config, this::detail);
        JvmDiscovery discovery = new JvmDiscovery(procFs, api, selfPid);
        if (arguments.continuous) {
            return watch(discovery, attacher);
        }
        return attachOnce(discovery, attacher);
    }

    private Map<String, String> configuration() throws AttachFailure {
        Map<String, String> fromFile = new LinkedHashMap<String, String>();
        if (arguments.argsFile != null) {
            try {
                fromFile.putAll(AgentConfigFile.read(arguments.argsFile.toPath()));
                if (fromFile.remove(AgentConfigFile.OPTION) != null) {
                    err.println("warning: config_file in " + arguments.argsFile + " is ignored: its options are passed to the agent"
                            + " in a configuration file of their own");
                }
            } catch (IOException | IllegalArgumentException e) {
                throw new AttachFailure(ExitCode.SETUP, "cannot read --args-file " + arguments.argsFile + ": " + e.getMessage(), e);
            }
        }
        return AgentConfigFile.merge(fromFile, arguments.config);
    }

    private ExitCode attachOnce(JvmDiscovery discovery, TargetAttacher attacher) {
        List<JvmProcess> targets = new ArrayList<JvmProcess>();
        Set<Long> chosen = new HashSet<Long>();
        for (Long pid : arguments.pids) {
            if (pid == selfPid) {
                err.println("error: pid " + pid + " is this attach command itself");
                return ExitCode.USAGE;
            }
            targets.add(discovery.describe(pid));
            chosen.add(pid);
        }
        if (!arguments.rules.isEmpty()) {
            boolean matched = false;
            for (JvmProcess jvm : discovery.discover()) {
                if (SelectionRule.selects(arguments.rules, jvm)) {
                    matched = true;
                    if (chosen.add(jvm.pid())) {
                        targets.add(jvm);
                    }
                } else {
                    detail("not selected: " + describe(jvm));
                }
            }
            if (!matched && arguments.pids.isEmpty()) {
                err.println("error: no running JVM of this user matched " + arguments.rules + " (see --list)");
                return ExitCode.NO_MATCH;
            }
        }
        List<ExitCode> outcomes = new ArrayList<ExitCode>();
        for (JvmProcess target : targets) {
            outcomes.add(attachTo(attacher, target));
        }
        if (targets.size() > 1) {
            int failed = 0;
            for (ExitCode outcome : outcomes) {
                failed += outcome == ExitCode.OK ? 0 : 1;
            }
            out.println(targets.size() - failed + " of " + targets.size() + " JVMs attached");
        }
        ExitCode result = ExitCode.combine(outcomes);
        detail("exit code " + result.code() + " (" + result.name() + ")");
        return result;
    }

    private ExitCode attachTo(TargetAttacher attacher, JvmProcess target) {
        try {
            String description = attacher.attach(target.pid());
            out.println("attached: " + describe(target) + ": " + description);
            return ExitCode.OK;
        } catch (AttachFailure e) {
            err.println("failed: " + describe(target) + ": " + e.getMessage() + " [exit code " + e.exitCode.code() + "]");
            if (arguments.verbose && e.getCause() != null) {
                e.getCause().printStackTrace(err);
            }
            return e.exitCode;
        }
    }

    /**
     * Watches for JVMs until the process is stopped (SIGTERM, Ctrl-C): every poll lists the JVMs, and each new one
     * (a pid with a start time not seen before) that the rules select is attached to once. A JVM that is not ready for
     * the attach signal yet is tried again at the next polls.
     */
    private ExitCode watch(JvmDiscovery discovery, TargetAttacher attacher) {
        final Thread watcher = Thread.currentThread();
        final CountDownLatch finished = new CountDownLatch(1);
        final boolean[] stopping = {false};
        Thread hook = new Thread(() -> {
            synchronized (stopping) {
                stopping[0] = true;
            }
            watcher.interrupt();
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
        }, "apm-agent-attach-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        Map<Long, Long> handled = new HashMap<Long, Long>();
        Map<Long, Integer> notReady = new HashMap<Long, Integer>();
        int attached = 0;
        out.println("watching for JVMs matching " + arguments.rules + " every " + arguments.pollMillis + " ms; stop with Ctrl-C or SIGTERM");
        out.flush();
        try {
            while (!isStopping(stopping)) {
                Set<Long> alive = new HashSet<Long>();
                for (JvmProcess jvm : discovery.discover()) {
                    if (isStopping(stopping)) {
                        break;
                    }
                    long pid = jvm.pid();
                    alive.add(pid);
                    long startTime = procFs == null ? 0 : procFs.startTime(pid);
                    Long seen = handled.get(pid);
                    if (seen != null && seen == startTime) {
                        continue;
                    }
                    if (!SelectionRule.selects(arguments.rules, jvm)) {
                        detail("not selected: " + describe(jvm));
                        handled.put(pid, startTime);
                        continue;
                    }
                    if (!attacher.isReady(pid)) {
                        int polls = notReady.containsKey(pid) ? notReady.get(pid) + 1 : 1;
                        notReady.put(pid, polls);
                        if (polls < MAX_NOT_READY_POLLS) {
                            detail(describe(jvm) + " is still starting; trying again at the next poll");
                            continue;
                        }
                    }
                    notReady.remove(pid);
                    handled.put(pid, startTime);
                    if (attachTo(attacher, jvm) == ExitCode.OK) {
                        attached++;
                    }
                    out.flush();
                }
                handled.keySet().retainAll(alive);
                notReady.keySet().retainAll(alive);
                try {
                    Thread.sleep(arguments.pollMillis);
                } catch (InterruptedException e) {
                    break;
                }
            }
            out.println("stopped watching for JVMs; attached to " + attached);
            out.flush();
            return ExitCode.OK;
        } finally {
            finished.countDown();
            if (!isStopping(stopping)) {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
        }
    }

    private static boolean isStopping(boolean[] stopping) {
        synchronized (stopping) {
            return stopping[0];
        }
    }

    private ExitCode list() {
        AttachApi api = null;
        try {
            api = AttachApi.load();
        } catch (AttachFailure e) {
            if (procFs == null) {
                err.println("error: " + e.getMessage());
                return e.exitCode;
            }
            detail(e.getMessage() + "; listing from /proc without asking the JVMs");
        }
        JvmDiscovery discovery = new JvmDiscovery(procFs, api, selfPid);
        List<JvmProcess> jvms = new ArrayList<JvmProcess>();
        for (JvmProcess jvm : discovery.discover()) {
            if ((arguments.pids.isEmpty() && arguments.rules.isEmpty()) || arguments.pids.contains(jvm.pid())
                    || SelectionRule.selects(arguments.rules, jvm)) {
                jvms.add(discovery.withJavaVersion(discovery.withAgentPresence(jvm)));
            }
        }
        if (jvms.isEmpty()) {
            out.println(arguments.pids.isEmpty() && arguments.rules.isEmpty()
                    ? "no JVM of this user runs (besides this command)" : "no running JVM of this user matches the selection");
            return ExitCode.OK;
        }
        out.println(String.format("%-8s %-10s %-16s %-40s %s", "PID", "JAVA", "AGENT", "MAIN", "ARGUMENTS"));
        for (JvmProcess jvm : jvms) {
            out.println(String.format("%-8d %-10s %-16s %-40s %s", jvm.pid(), jvm.javaVersion().isEmpty() ? "?" : jvm.javaVersion(),
                    jvm.agent().label, jvm.main().isEmpty() ? "?" : jvm.main(), String.join(" ", jvm.appArgs())).trim());
            if (arguments.listVmArgs) {
                out.println("         JVM options: " + String.join(" ", jvm.vmArgs()));
            }
        }
        return ExitCode.OK;
    }

    private static String describe(JvmProcess jvm) {
        return jvm.main().isEmpty() ? "JVM " + jvm.pid() : "JVM " + jvm.pid() + " (" + jvm.main() + ")";
    }

    private void detail(String message) {
        if (arguments.verbose) {
            err.println("  " + message);
        }
    }

    private static long selfPid() {
        try {
            return Long.parseLong(ByteBuddyAgent.ProcessProvider.ForCurrentVm.INSTANCE.resolve());
        } catch (RuntimeException e) {
            return -1;
        }
    }

    static String usage() {
        StringBuilder sb = new StringBuilder();
        sb.append("Attach the apm-agent to running JVMs of the same user.\n\n")
                .append("Usage: java -jar apm-agent.jar attach [options]\n\n")
                .append("Selecting JVMs:\n")
                .append("  -l, --list                 list the JVMs this user can attach to (pid, Java version, agent, main\n")
                .append("                             class or jar, arguments) and exit; with --pid or rules, only the selected\n")
                .append("                             ones. AGENT is 'yes', 'no', or '?' when only attaching could tell\n")
                .append("  -v, --list-vmargs          like --list, also showing each JVM's options\n")
                .append("  -p, --pid PID              attach to this JVM; repeatable, or comma-separated (alias --include-pid)\n")
                .append("  --include-all              select every JVM of this user\n")
                .append("  --include-main REGEX       select JVMs whose main class or jar matches REGEX (partial match)\n")
                .append("  --exclude-main REGEX       leave out JVMs whose main class or jar matches REGEX\n")
                .append("  --include-vmarg REGEX      select JVMs with a JVM option matching REGEX, e.g. -Dapp=orders\n")
                .append("  --exclude-vmarg REGEX      leave out JVMs with a JVM option matching REGEX\n")
                .append("                             Rules apply in the order given; the first matching rule decides,\n")
                .append("                             and a JVM no rule matches is left alone.\n")
                .append("  -c, --continuous           keep running and attach to selected JVMs as they start (and to those\n")
                .append("                             already running); stop with Ctrl-C or SIGTERM\n")
                .append("  --poll-interval DURATION   how often --continuous looks for new JVMs: 500ms, 2s, 1m (default 1s)\n\n")
                .append("Configuring the agent:\n")
                .append("  -C, --config KEY=VALUE     an agent option; repeatable, overrides --args-file\n")
                .append("  --args-file FILE           a properties file of agent options (not a script, unlike Elastic's -A)\n")
                .append("                             The options reach the agent through a temporary properties file\n")
                .append("                             (mode 0600) given as config_file=<path>, deleted once the agent started.\n")
                .append("  --agent-jar PATH           the agent jar to load (default: the jar this command runs from)\n\n")
                .append("Other:\n")
                .append("  --verbose                  say what is done, step by step, on standard error\n")
                .append("  -h, --help                 this help\n\n")
                .append("Examples:\n")
                .append("  java -jar apm-agent.jar attach --list\n")
                .append("  java -jar apm-agent.jar attach --pid 4711 --config service_name=orders --config server_url=http://apm:8200\n")
                .append("  java -jar apm-agent.jar attach --include-main 'com\\.example\\..*' --args-file /etc/apm-agent.properties\n")
                .append("  java -jar apm-agent.jar attach --exclude-main kafka --include-all\n")
                .append("  java -jar apm-agent.jar attach --continuous --include-vmarg '-Dapm=on' --config environment=staging\n\n")
                .append("Attaching needs the same user as the target JVM (run as that user: sudo -u USER java -jar ...)\n")
                .append("and a JDK to run this command. Supported targets: Java ").append(JavaVersion.MIN_SUPPORTED).append(" to ")
                .append(JavaVersion.MAX_SUPPORTED).append(".\nJVMs on Java 21+ print a warning about a dynamically loaded agent")
                .append(" unless started with\n-XX:+EnableDynamicAgentLoading; the attach works either way.\n\n")
                .append("Exit codes:\n");
        for (ExitCode code : ExitCode.values()) {
            sb.append(String.format("  %2d  %s%n", code.code(), code.meaning()));
        }
        sb.append("  With several JVMs, each is reported on its own line; the exit code is that of their common failure,\n")
                .append("  or 11 when they failed for different reasons. --continuous runs until stopped and then ends with\n")
                .append("  the signal's status (143 for SIGTERM, 130 for Ctrl-C).\n");
        return sb.toString();
    }
}
