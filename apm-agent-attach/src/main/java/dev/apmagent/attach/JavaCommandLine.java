package dev.apmagent.attach;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits the command line of a process started by the {@code java} launcher into JVM options, the main class or jar,
 * and the application's arguments, following the launcher's own rules: options come first, {@code -jar} and
 * {@code -m}/{@code --module} name what runs, and the options listed in {@link #OPTIONS_WITH_VALUE} consume the next
 * argument.
 */
final class JavaCommandLine {

    private static final List<String> OPTIONS_WITH_VALUE = Arrays.asList(
            "-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path", "--add-modules",
            "--limit-modules", "--add-reads", "--add-exports", "--add-opens", "--patch-module", "--enable-native-access",
            "--source", "--describe-module", "-d", "--sun-misc-unsafe-memory-access", "--illegal-native-access");

    private static final String DISABLE_ATTACH = "-XX:+DisableAttachMechanism";
    private static final String ENABLE_ATTACH = "-XX:-DisableAttachMechanism";

    private JavaCommandLine() {
    }

    /** Whether the first argument is a {@code java} launcher; other launchers' arguments cannot be told apart. */
    static boolean isJavaLauncher(String argv0) {
        String name = argv0.substring(Math.max(argv0.lastIndexOf('/'), argv0.lastIndexOf('\\')) + 1);
        return name.equals("java") || name.equals("javaw") || name.equals("java.exe") || name.equals("javaw.exe");
    }

    /** Parses a whole command line, {@code argv[0]} included. */
    static JvmProcess parse(long pid, List<String> argv) {
        List<String> vmArgs = new ArrayList<String>();
        List<String> appArgs = new ArrayList<String>();
        String main = "";
        if (argv.isEmpty()) {
            return new JvmProcess(pid, main, vmArgs, appArgs, JvmProcess.AgentPresence.UNKNOWN);
        }
        if (!isJavaLauncher(argv.get(0))) {
            // a custom launcher (a native image of a launcher, jsvc, ...): its arguments mean what it wants them to
            return new JvmProcess(pid, argv.get(0), vmArgs, new ArrayList<String>(argv.subList(1, argv.size())),
                    JvmProcess.AgentPresence.UNKNOWN);
        }
        int i = 1;
        while (i < argv.size()) {
            String arg = argv.get(i);
            if (arg.equals("-jar") || arg.equals("-m") || arg.equals("--module")) {
                if (i + 1 < argv.size()) {
                    main = argv.get(i + 1);
                }
                i += 2;
                break;
            }
            if (arg.startsWith("--module=")) {
                main = arg.substring("--module=".length());
                i++;
                break;
            }
            if (!arg.startsWith("-") && !arg.startsWith("@")) {
                main = arg;
                i++;
                break;
            }
            vmArgs.add(arg);
            if (OPTIONS_WITH_VALUE.contains(arg) && i + 1 < argv.size()) {
                vmArgs.add(argv.get(i + 1));
                i += 2;
            } else {
                i++;
            }
        }
        for (; i < argv.size(); i++) {
            appArgs.add(argv.get(i));
        }
        return new JvmProcess(pid, main, vmArgs, appArgs, agentFromVmArgs(vmArgs));
    }

    /**
     * Parses a {@code sun.rt.javaCommand} (the main class or jar and the arguments, separated by spaces, as the
     * Attach API's descriptors show it). Arguments with spaces cannot be told apart there.
     */
    static JvmProcess parseDisplayName(long pid, String displayName) {
        List<String> parts = new ArrayList<String>();
        for (String part : displayName.trim().split(" +")) {
            if (!part.isEmpty()) {
                parts.add(part);
            }
        }
        String main = parts.isEmpty() ? "" : parts.get(0);
        List<String> appArgs = parts.isEmpty() ? new ArrayList<String>() : new ArrayList<String>(parts.subList(1, parts.size()));
        return new JvmProcess(pid, main, new ArrayList<String>(), appArgs, JvmProcess.AgentPresence.UNKNOWN);
    }

    /** A JVM with {@code -javaagent:...apm-agent...} runs the agent; without, it may still have been attached to. */
    static JvmProcess.AgentPresence agentFromVmArgs(List<String> vmArgs) {
        for (int i = 0; i < vmArgs.size(); i++) {
            String arg = vmArgs.get(i);
            if (arg.startsWith("-javaagent:") && arg.contains("apm-agent")) {
                return JvmProcess.AgentPresence.JAVAAGENT;
            }
        }
        return JvmProcess.AgentPresence.UNKNOWN;
    }

    /** Whether the options disable the Attach API; the last occurrence wins, as for every -XX flag. */
    static boolean disablesAttach(List<String> options) {
        boolean disabled = false;
        for (int i = 0; i < options.size(); i++) {
            String option = options.get(i);
            if (option.equals(DISABLE_ATTACH)) {
                disabled = true;
            } else if (option.equals(ENABLE_ATTACH)) {
                disabled = false;
            }
        }
        return disabled;
    }

    /** Splits the value of {@code JAVA_TOOL_OPTIONS} and its kind into options (quotes are not interpreted). */
    static List<String> splitOptions(String value) {
        List<String> options = new ArrayList<String>();
        if (value != null) {
            for (String option : value.trim().split("\\s+")) {
                if (!option.isEmpty()) {
                    options.add(option);
                }
            }
        }
        return options;
    }
}
