package dev.apmagent.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The JVM's arguments as {@code include_process_args} sends them ({@code metadata.process.argv}): the value of every
 * argument whose name matches {@code sanitize_field_names} or is one of the agent's secret options reads
 * {@code [REDACTED]}, and so does the user information of every URL. Forms recognised:
 * <ul>
 * <li>{@code -Dname=value}, the name matched whole and by each of its dot-separated parts ({@code -Ddb.password=x});
 *     {@code -Delastic.apm.secret_token=x} and {@code -Delastic.apm.api_key=x} always;</li>
 * <li>{@code --name=value}, {@code -name=value}, and {@code --name value} (the next argument is the value, unless it
 *     starts with '-');</li>
 * <li>the options of {@code -javaagent:path=options} (and {@code -agentpath:}, {@code -agentlib:}), split as the
 *     agent splits its own arguments ({@link AgentArguments}):
 *     {@code -javaagent:apm-agent.jar=secret_token=[REDACTED],service_name=x};</li>
 * <li>{@code scheme://user:password@host} anywhere: {@code scheme://[REDACTED]@host}.</li>
 * </ul>
 * Runs once, when the metadata is built; never throws.
 */
public final class ProcessArgs {

    private static final String[] AGENT_OPTIONS_PREFIXES = {"-javaagent:", "-agentpath:", "-agentlib:"};

    private ProcessArgs() {
    }

    /** The secret options' keys: {@code secret_token}, {@code api_key}, and any other option declared as a secret. */
    public static Set<String> secretKeys(Collection<ConfigOption<?>> options) {
        Set<String> keys = new HashSet<String>();
        keys.add(CoreOptions.SECRET_TOKEN.key());
        keys.add(CoreOptions.API_KEY.key());
        for (ConfigOption<?> option : options) {
            if (option.isSensitive()) {
                keys.add(option.key());
            }
        }
        return keys;
    }

    /** {@code args} with sensitive values and URL credentials redacted (a new list; {@code args} is not changed). */
    public static List<String> redact(List<String> args, WildcardMatcherList sanitize, Collection<String> secretKeys) {
        if (args == null) {
            return Collections.emptyList();
        }
        final Names names = new Names(sanitize, secretKeys);
        List<String> out = new ArrayList<String>(args.size());
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i) == null ? "" : args.get(i);
            String redacted = arg;
            String agentPrefix = agentOptionsPrefix(arg);
            if (agentPrefix != null) {
                int eq = arg.indexOf('=', agentPrefix.length());
                if (eq >= 0) {
                    redacted = arg.substring(0, eq + 1) + AgentArguments.redactValues(arg.substring(eq + 1), names);
                }
            } else if (arg.startsWith("-")) {
                int nameStart = arg.startsWith("-D") ? 2 : arg.startsWith("--") ? 2 : 1;
                int eq = arg.indexOf('=');
                if (eq > nameStart) {
                    if (names.isSensitive(arg.substring(nameStart, eq))) {
                        redacted = arg.substring(0, eq + 1) + ConfigOption.REDACTED;
                    }
                } else if (eq < 0 && !arg.startsWith("-D") && arg.length() > nameStart
                        && names.isSensitive(arg.substring(nameStart))
                        && i + 1 < args.size() && args.get(i + 1) != null && !args.get(i + 1).startsWith("-")) {
                    out.add(arg);
                    out.add(ConfigOption.REDACTED);
                    i++;
                    continue;
                }
            }
            out.add(UrlUserInfo.redact(redacted));
        }
        return out;
    }

    private static String agentOptionsPrefix(String arg) {
        for (String prefix : AGENT_OPTIONS_PREFIXES) {
            if (arg.startsWith(prefix)) {
                return prefix;
            }
        }
        return null;
    }

    private static final class Names implements AgentArguments.SensitiveNames {
        private final WildcardMatcherList sanitize;
        private final Collection<String> secretKeys;

        Names(WildcardMatcherList sanitize, Collection<String> secretKeys) {
            this.sanitize = sanitize == null ? WildcardMatcherList.EMPTY : sanitize;
            this.secretKeys = secretKeys;
        }

        @Override
        public boolean isSensitive(String name) {
            String n = name.trim();
            String lower = n.toLowerCase(Locale.ROOT);
            if (secretKeys.contains(lower) || (lower.startsWith(ConfigLoader.SYSTEM_PROPERTY_PREFIX)
                    && secretKeys.contains(lower.substring(ConfigLoader.SYSTEM_PROPERTY_PREFIX.length())))) {
                return true;
            }
            if (sanitize.matches(n)) {
                return true;
            }
            int start = 0;
            for (int dot = n.indexOf('.'); dot >= 0; dot = n.indexOf('.', start)) {
                if (sanitize.matches(n.substring(start, dot))) {
                    return true;
                }
                start = dot + 1;
            }
            return start > 0 && sanitize.matches(n.substring(start));
        }
    }
}
