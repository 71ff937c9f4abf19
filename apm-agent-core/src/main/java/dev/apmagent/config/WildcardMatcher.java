package dev.apmagent.config;

/**
 * A pattern where {@code *} matches any run of characters (including none); every other character, {@code ?}
 * included, matches itself. Matching is case-insensitive unless the pattern starts with {@code (?-i)}; a leading
 * {@code (?i)} states the default explicitly. This is the format Elastic's agents share
 * (wildcard_matcher_tests.json).
 *
 * <p>{@link #matches(CharSequence)} allocates nothing and takes no lock: it may run on application threads.
 * The literal parts between stars are matched left to right, each at its leftmost position, which is exact for
 * patterns whose only metacharacter is {@code *}.
 */
public final class WildcardMatcher {

    static final String CASE_SENSITIVE_PREFIX = "(?-i)";
    static final String CASE_INSENSITIVE_PREFIX = "(?i)";

    private final String pattern;
    private final boolean ignoreCase;
    /** The pattern without its flag prefix, when it has no star; null otherwise. */
    private final String literal;
    /** Non-empty literal parts between stars, in order. */
    private final String[] parts;
    private final boolean leadingStar;
    private final boolean trailingStar;

    private WildcardMatcher(String pattern) {
        this.pattern = pattern;
        String body = pattern;
        boolean caseInsensitive = true;
        if (body.startsWith(CASE_SENSITIVE_PREFIX)) {
            caseInsensitive = false;
            body = body.substring(CASE_SENSITIVE_PREFIX.length());
        } else if (body.startsWith(CASE_INSENSITIVE_PREFIX)) {
            body = body.substring(CASE_INSENSITIVE_PREFIX.length());
        }
        this.ignoreCase = caseInsensitive;
        if (body.indexOf('*') < 0) {
            this.literal = body;
            this.parts = new String[0];
            this.leadingStar = false;
            this.trailingStar = false;
        } else {
            this.literal = null;
            this.leadingStar = body.charAt(0) == '*';
            this.trailingStar = body.charAt(body.length() - 1) == '*';
            java.util.List<String> list = new java.util.ArrayList<String>();
            int start = 0;
            for (int i = 0; i <= body.length(); i++) {
                if (i == body.length() || body.charAt(i) == '*') {
                    if (i > start) {
                        list.add(body.substring(start, i));
                    }
                    start = i + 1;
                }
            }
            this.parts = list.toArray(new String[0]);
        }
    }

    /** Compiles a pattern; never fails (every string is a valid pattern). */
    public static WildcardMatcher valueOf(String pattern) {
        if (pattern == null) {
            throw new IllegalArgumentException("pattern is null");
        }
        return new WildcardMatcher(pattern);
    }

    /** Whether the whole of {@code text} matches; false for null. Allocation-free. */
    public boolean matches(CharSequence text) {
        if (text == null) {
            return false;
        }
        int len = text.length();
        if (literal != null) {
            return len == literal.length() && regionMatches(text, 0, literal);
        }
        int n = parts.length;
        int from = 0;
        int to = len;
        int first = 0;
        int last = n - 1;
        if (!leadingStar) {
            String prefix = parts[0];
            if (prefix.length() > len || !regionMatches(text, 0, prefix)) {
                return false;
            }
            from = prefix.length();
            first = 1;
        }
        if (!trailingStar) {
            String suffix = parts[n - 1];
            int start = len - suffix.length();
            if (start < from || !regionMatches(text, start, suffix)) {
                return false;
            }
            to = start;
            last = n - 2;
        }
        for (int i = first; i <= last; i++) {
            String part = parts[i];
            int at = indexOf(text, part, from, to);
            if (at < 0) {
                return false;
            }
            from = at + part.length();
        }
        return true;
    }

    private int indexOf(CharSequence text, String part, int from, int to) {
        int lastStart = to - part.length();
        for (int i = from; i <= lastStart; i++) {
            if (regionMatches(text, i, part)) {
                return i;
            }
        }
        return -1;
    }

    private boolean regionMatches(CharSequence text, int offset, String part) {
        int n = part.length();
        for (int i = 0; i < n; i++) {
            char a = text.charAt(offset + i);
            char b = part.charAt(i);
            if (a == b) {
                continue;
            }
            if (!ignoreCase) {
                return false;
            }
            // the same two-step comparison as String.regionMatches(true, ...)
            char ua = Character.toUpperCase(a);
            char ub = Character.toUpperCase(b);
            if (ua != ub && Character.toLowerCase(ua) != Character.toLowerCase(ub)) {
                return false;
            }
        }
        return true;
    }

    public boolean isCaseSensitive() {
        return !ignoreCase;
    }

    /** The pattern as given, flag prefix included. */
    public String pattern() {
        return pattern;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WildcardMatcher && ((WildcardMatcher) o).pattern.equals(pattern);
    }

    @Override
    public int hashCode() {
        return pattern.hashCode();
    }

    @Override
    public String toString() {
        return pattern;
    }
}
