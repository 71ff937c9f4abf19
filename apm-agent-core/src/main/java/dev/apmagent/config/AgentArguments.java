package dev.apmagent.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Splits the {@code -javaagent:apm-agent.jar=<arguments>} text into key/value pairs.
 *
 * <p>The rule, which never depends on which options exist:
 * <ol>
 * <li>If the text contains a {@code ;}, pairs are separated by {@code ;} only, and commas belong to values
 *     ({@code disable_instrumentations=jdbc,servlet;service_name=x}).</li>
 * <li>Otherwise a {@code ,} starts a new pair only when the text after it, up to the next {@code =}, is a
 *     key-shaped word (letters, digits and {@code _}, starting with a letter; surrounding blanks allowed) with no
 *     comma in it. Any other comma belongs to the value: {@code disable_instrumentations=jdbc,servlet,service_name=x}
 *     is {@code disable_instrumentations=jdbc,servlet} and {@code service_name=x}.</li>
 * <li>In a pair, the first {@code =} separates key and value; key and value are trimmed; keys are lower-cased.</li>
 * </ol>
 * A value that itself contains {@code ,word=} (as in {@code a=1,b=2}) needs the {@code ;} form.
 */
final class AgentArguments {

    private AgentArguments() {
    }

    /** One key/value pair, in the order given. */
    static final class Pair {
        final String key;
        final String value;

        Pair(String key, String value) {
            this.key = key;
            this.value = value;
        }

        @Override
        public String toString() {
            return key + "=" + value;
        }
    }

    /**
     * Parses {@code args} (null or blank gives no pairs). Segments without {@code =} or with a malformed key are
     * reported in {@code warnings} by position only, since their text might be a secret.
     */
    static List<Pair> parse(String args, List<String> warnings) {
        if (args == null || args.trim().isEmpty()) {
            return Collections.emptyList();
        }
        List<String> segments = args.indexOf(';') >= 0 ? splitOn(args, ';') : splitOnKeyedCommas(args);
        List<Pair> pairs = new ArrayList<Pair>(segments.size());
        for (int i = 0; i < segments.size(); i++) {
            String segment = segments.get(i).trim();
            if (segment.isEmpty()) {
                continue;
            }
            int eq = segment.indexOf('=');
            String key = eq < 0 ? "" : segment.substring(0, eq).trim();
            if (eq < 0 || !isKeyWord(key)) {
                warnings.add("Agent argument " + (i + 1) + " is not of the form key=value; it is ignored");
                continue;
            }
            pairs.add(new Pair(key.toLowerCase(Locale.ROOT), segment.substring(eq + 1).trim()));
        }
        return pairs;
    }

    /** Decides whether the value of an argument with this name must not be shown. */
    interface SensitiveNames {
        boolean isSensitive(String name);
    }

    /**
     * {@code args} as written, except that the value of every pair whose key is sensitive reads {@code [REDACTED]};
     * the pairs are split as {@link #parse} splits them.
     */
    static String redactValues(String args, SensitiveNames names) {
        boolean semicolons = args.indexOf(';') >= 0;
        List<String> segments = semicolons ? splitOn(args, ';') : splitOnKeyedCommas(args);
        StringBuilder sb = new StringBuilder(args.length());
        for (int i = 0; i < segments.size(); i++) {
            String segment = segments.get(i);
            int eq = segment.indexOf('=');
            if (i > 0) {
                sb.append(semicolons ? ';' : ',');
            }
            if (eq >= 0 && names.isSensitive(segment.substring(0, eq).trim())) {
                sb.append(segment, 0, eq + 1).append(ConfigOption.REDACTED);
            } else {
                sb.append(segment);
            }
        }
        return sb.toString();
    }

    private static List<String> splitOn(String s, char separator) {
        List<String> out = new ArrayList<String>();
        int start = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || s.charAt(i) == separator) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        return out;
    }

    private static List<String> splitOnKeyedCommas(String s) {
        List<String> out = new ArrayList<String>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == ',' && startsPair(s, i + 1)) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    /** Whether the text from {@code from} up to the next '=' is one key-shaped word (no comma before the '='). */
    private static boolean startsPair(String s, int from) {
        for (int j = from; j < s.length(); j++) {
            char c = s.charAt(j);
            if (c == '=') {
                return isKeyWord(s.substring(from, j).trim());
            }
            if (c == ',') {
                return false;
            }
        }
        return false;
    }

    /** A letter, then letters, digits or '_' (either case: keys are lower-cased afterwards). */
    static boolean isKeyWord(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            if (!(letter || (i > 0 && ((c >= '0' && c <= '9') || c == '_')))) {
                return false;
            }
        }
        return true;
    }
}
