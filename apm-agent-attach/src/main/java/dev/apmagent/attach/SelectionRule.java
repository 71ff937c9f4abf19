package dev.apmagent.attach;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One {@code --include-*}/{@code --exclude-*} rule. Rules are evaluated in the order given on the command line and the
 * first rule that matches a JVM decides whether it is attached to; a JVM no rule matches is left alone, as in the
 * Elastic attach command. Patterns match partially ({@code Matcher.find}): {@code foo} matches {@code /opt/foo.jar}.
 */
final class SelectionRule {

    enum Kind {
        INCLUDE_ALL("--include-all", true),
        INCLUDE_MAIN("--include-main", true),
        EXCLUDE_MAIN("--exclude-main", false),
        INCLUDE_VMARG("--include-vmarg", true),
        EXCLUDE_VMARG("--exclude-vmarg", false);

        final String flag;
        final boolean include;

        Kind(String flag, boolean include) {
            this.flag = flag;
            this.include = include;
        }
    }

    final Kind kind;
    private final Pattern pattern;

    private SelectionRule(Kind kind, Pattern pattern) {
        this.kind = kind;
        this.pattern = pattern;
    }

    static SelectionRule includeAll() {
        return new SelectionRule(Kind.INCLUDE_ALL, null);
    }

    static SelectionRule of(Kind kind, Pattern pattern) {
        return new SelectionRule(kind, pattern);
    }

    boolean matches(JvmProcess jvm) {
        switch (kind) {
            case INCLUDE_ALL:
                return true;
            case INCLUDE_MAIN:
            case EXCLUDE_MAIN:
                return pattern.matcher(jvm.main()).find();
            default:
                List<String> vmArgs = jvm.vmArgs();
                for (int i = 0; i < vmArgs.size(); i++) {
                    if (pattern.matcher(vmArgs.get(i)).find()) {
                        return true;
                    }
                }
                return false;
        }
    }

    /** Whether the rules select this JVM: the first matching rule decides; no match means not selected. */
    static boolean selects(List<SelectionRule> rules, JvmProcess jvm) {
        for (int i = 0; i < rules.size(); i++) {
            SelectionRule rule = rules.get(i);
            if (rule.matches(jvm)) {
                return rule.kind.include;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return pattern == null ? kind.flag : kind.flag + " " + pattern.pattern();
    }
}
