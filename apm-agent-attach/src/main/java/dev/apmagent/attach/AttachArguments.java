package dev.apmagent.attach;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** The attach command's parsed command line. {@link #parse} checks everything that can be checked without the system. */
final class AttachArguments {

    static final long DEFAULT_POLL_MILLIS = 1000;

    boolean help;
    boolean list;
    boolean listVmArgs;
    boolean continuous;
    boolean verbose;
    long pollMillis = DEFAULT_POLL_MILLIS;
    final Set<Long> pids = new LinkedHashSet<Long>();
    final List<SelectionRule> rules = new ArrayList<SelectionRule>();
    final Map<String, String> config = new LinkedHashMap<String, String>();
    File argsFile;
    File agentJar;

    /** A command line the attach command cannot run; the message says what is wrong. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static AttachArguments parse(String... args) throws UsageException {
        AttachArguments parsed = new AttachArguments();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            String inlineValue = null;
            if (flag.startsWith("--") && flag.indexOf('=') > 2) {
                inlineValue = flag.substring(flag.indexOf('=') + 1);
                flag = flag.substring(0, flag.indexOf('='));
            }
            switch (flag) {
                case "-h":
                case "--help":
                    parsed.help = true;
                    noValue(flag, inlineValue);
                    break;
                case "-l":
                case "--list":
                    parsed.list = true;
                    noValue(flag, inlineValue);
                    break;
                case "-v":
                case "--list-vmargs":
                    parsed.list = true;
                    parsed.listVmArgs = true;
                    noValue(flag, inlineValue);
                    break;
                case "-c":
                case "--continuous":
                    parsed.continuous = true;
                    noValue(flag, inlineValue);
                    break;
                case "--verbose":
                    parsed.verbose = true;
                    noValue(flag, inlineValue);
                    break;
                case "--include-all":
                    parsed.rules.add(SelectionRule.includeAll());
                    noValue(flag, inlineValue);
                    break;
                case "-p":
                case "--pid":
                case "--include-pid":
                    for (String pid : value(args, i, flag, inlineValue).split(",")) {
                        parsed.pids.add(parsePid(pid.trim()));
                    }
                    break;
                case "--include-main":
                    parsed.rules.add(SelectionRule.of(SelectionRule.Kind.INCLUDE_MAIN, regex(flag, value(args, i, flag, inlineValue))));
                    break;
                case "--exclude-main":
                    parsed.rules.add(SelectionRule.of(SelectionRule.Kind.EXCLUDE_MAIN, regex(flag, value(args, i, flag, inlineValue))));
                    break;
                case "--include-vmarg":
                case "--include-vmargs":
                    parsed.rules.add(SelectionRule.of(SelectionRule.Kind.INCLUDE_VMARG, regex(flag, value(args, i, flag, inlineValue))));
                    break;
                case "--exclude-vmarg":
                case "--exclude-vmargs":
                    parsed.rules.add(SelectionRule.of(SelectionRule.Kind.EXCLUDE_VMARG, regex(flag, value(args, i, flag, inlineValue))));
                    break;
                case "-C":
                case "--config":
                    String pair = value(args, i, flag, inlineValue);
                    int eq = pair.indexOf('=');
                    String key = eq < 0 ? "" : pair.substring(0, eq).trim();
                    if (key.isEmpty() || key.contains(" ")) {
                        throw new UsageException(flag + " expects key=value, got '" + pair + "'");
                    }
                    if (key.equals(AgentConfigFile.OPTION)) {
                        throw new UsageException(flag + " " + AgentConfigFile.OPTION + "=... is not possible: the attach command passes its"
                                + " own config_file; give a properties file with --args-file FILE instead");
                    }
                    parsed.config.put(key, pair.substring(eq + 1).trim());
                    break;
                case "--args-file":
                    parsed.argsFile = new File(value(args, i, flag, inlineValue));
                    break;
                case "--agent-jar":
                    parsed.agentJar = new File(value(args, i, flag, inlineValue));
                    break;
                case "--poll-interval":
                    parsed.pollMillis = parseDurationMillis(flag, value(args, i, flag, inlineValue));
                    break;
                default:
                    throw new UsageException(flag.startsWith("-") ? "unknown option " + flag
                            : "unexpected argument '" + flag + "' (pids are given with --pid)");
            }
            if (inlineValue == null && takesValue(flag)) {
                i++;
            }
        }
        if (!parsed.help) {
            parsed.validate();
        }
        return parsed;
    }

    private void validate() throws UsageException {
        if (continuous && list) {
            throw new UsageException("--continuous and --list cannot be combined: --list shows the JVMs running now");
        }
        if (continuous && rules.isEmpty()) {
            throw new UsageException("--continuous attaches to JVMs as they start: select them with --include-main, "
                    + "--include-vmarg or --include-all (--pid names JVMs that already run)");
        }
        if (continuous && !pids.isEmpty()) {
            throw new UsageException("--continuous cannot be combined with --pid: select the JVMs with --include-* rules");
        }
        if (!list && pids.isEmpty() && rules.isEmpty()) {
            throw new UsageException("nothing to attach to: give --pid PID, an --include-* rule or --include-all (or --list to see the JVMs)");
        }
        if (!rules.isEmpty() && !hasInclude()) {
            throw new UsageException("only --exclude-* rules were given: they select nothing on their own; add --include-all after them");
        }
    }

    private boolean hasInclude() {
        for (SelectionRule rule : rules) {
            if (rule.kind.include) {
                return true;
            }
        }
        return false;
    }

    List<SelectionRule> rules() {
        return Collections.unmodifiableList(rules);
    }

    private static boolean takesValue(String flag) {
        switch (flag) {
            case "-p":
            case "--pid":
            case "--include-pid":
            case "--include-main":
            case "--exclude-main":
            case "--include-vmarg":
            case "--include-vmargs":
            case "--exclude-vmarg":
            case "--exclude-vmargs":
            case "-C":
            case "--config":
            case "--args-file":
            case "--agent-jar":
            case "--poll-interval":
                return true;
            default:
                return false;
        }
    }

    private static void noValue(String flag, String inlineValue) throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(flag + " takes no value");
        }
    }

    private static String value(String[] args, int i, String flag, String inlineValue) throws UsageException {
        if (inlineValue != null) {
            if (inlineValue.isEmpty()) {
                throw new UsageException(flag + " needs a value");
            }
            return inlineValue;
        }
        if (i + 1 >= args.length || args[i + 1].isEmpty()) {
            throw new UsageException(flag + " needs a value");
        }
        return args[i + 1];
    }

    static long parsePid(String value) throws UsageException {
        try {
            long pid = Long.parseLong(value);
            if (pid > 0) {
                return pid;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException("not a pid: '" + value + "' (a positive number, see --list)");
    }

    private static Pattern regex(String flag, String value) throws UsageException {
        try {
            return Pattern.compile(value);
        } catch (PatternSyntaxException e) {
            throw new UsageException(flag + ": invalid regular expression '" + value + "': " + e.getDescription());
        }
    }

    /** {@code 500ms}, {@code 2s}, {@code 1m}, or a number of seconds; between 100 ms and 1 hour. */
    static long parseDurationMillis(String flag, String value) throws UsageException {
        String v = value.trim().toLowerCase();
        long factor = 1000;
        if (v.endsWith("ms")) {
            factor = 1;
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("s")) {
            v = v.substring(0, v.length() - 1);
        } else if (v.endsWith("m")) {
            factor = 60_000;
            v = v.substring(0, v.length() - 1);
        }
        try {
            long millis = Long.parseLong(v.trim()) * factor;
            if (millis >= 100 && millis <= 3_600_000) {
                return millis;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new UsageException(flag + " expects a duration between 100ms and 1h such as 500ms, 2s or 1m, got '" + value + "'");
    }
}
