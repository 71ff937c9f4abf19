package dev.apmagent.config;

/**
 * Remembers whether a {@link WildcardMatcherList} matches a text, for lists matched over and over against a small
 * vocabulary: {@code sanitize_field_names} against the header and cookie names of every request. Matching a name
 * against the twelve default patterns costs a case-insensitive scan per pattern (a third of the servlet advice's
 * samples in the overhead harness's profile, 1.5 µs per request); a hit here costs the name's hash and one
 * {@code equals}.
 *
 * <p>A direct-mapped table of {@value #SLOTS} slots; a slot holds one immutable decision and a colliding name replaces
 * it. Reads and writes are plain and may race: a decision's fields are final, so any thread that sees a decision sees
 * it whole (JLS 17.5), and a lost write only costs a later match. A miss allocates one decision; a hit allocates
 * nothing. Texts longer than {@value #MAX_CACHED_LENGTH} characters are matched every time and never held.
 */
public final class MatchCache {

    static final int SLOTS = 256;
    static final int MAX_CACHED_LENGTH = 64;

    private final WildcardMatcherList list;
    private final Decision[] slots = new Decision[SLOTS];

    public MatchCache(WildcardMatcherList list) {
        this.list = list;
    }

    /** Whether any matcher of the list matches {@code text}; false for null. */
    public boolean matches(String text) {
        if (text == null || list.isEmpty()) {
            return false;
        }
        if (text.length() > MAX_CACHED_LENGTH) {
            return list.matches(text);
        }
        int h = text.hashCode();
        int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        Decision d = slots[slot];
        if (d != null && d.hash == h && d.text.equals(text)) {
            return d.matches;
        }
        boolean matches = list.matches(text);
        slots[slot] = new Decision(text, h, matches);
        return matches;
    }

    private static final class Decision {
        final String text;
        final int hash;
        final boolean matches;

        Decision(String text, int hash, boolean matches) {
            this.text = text;
            this.hash = hash;
            this.matches = matches;
        }
    }
}
