package dev.apmagent.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An immutable list of {@link WildcardMatcher}s, the value of options such as {@code transaction_ignore_urls}.
 * {@link #matches(CharSequence)} is allocation-free (an indexed loop over an array) and may run on application
 * threads.
 */
public final class WildcardMatcherList {

    public static final WildcardMatcherList EMPTY = new WildcardMatcherList(new WildcardMatcher[0]);

    private final WildcardMatcher[] matchers;

    private WildcardMatcherList(WildcardMatcher[] matchers) {
        this.matchers = matchers;
    }

    public static WildcardMatcherList of(String... patterns) {
        WildcardMatcher[] m = new WildcardMatcher[patterns.length];
        for (int i = 0; i < patterns.length; i++) {
            m[i] = WildcardMatcher.valueOf(patterns[i]);
        }
        return m.length == 0 ? EMPTY : new WildcardMatcherList(m);
    }

    public static WildcardMatcherList of(List<String> patterns) {
        return of(patterns.toArray(new String[0]));
    }

    /** Whether any matcher matches {@code text}; false for an empty list or null text. */
    public boolean matches(CharSequence text) {
        return firstMatch(text) != null;
    }

    /** The first matcher that matches {@code text}, or null (useful for url_groups-style options). */
    public WildcardMatcher firstMatch(CharSequence text) {
        if (text == null) {
            return null;
        }
        WildcardMatcher[] m = matchers;
        for (int i = 0; i < m.length; i++) {
            if (m[i].matches(text)) {
                return m[i];
            }
        }
        return null;
    }

    public int size() {
        return matchers.length;
    }

    public boolean isEmpty() {
        return matchers.length == 0;
    }

    public WildcardMatcher get(int index) {
        return matchers[index];
    }

    public List<WildcardMatcher> asList() {
        List<WildcardMatcher> list = new ArrayList<WildcardMatcher>(matchers.length);
        Collections.addAll(list, matchers);
        return Collections.unmodifiableList(list);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WildcardMatcherList && Arrays.equals(((WildcardMatcherList) o).matchers, matchers);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(matchers);
    }

    /** The patterns joined with ", ", as they would be written in a configuration source. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < matchers.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(matchers[i].pattern());
        }
        return sb.toString();
    }
}
