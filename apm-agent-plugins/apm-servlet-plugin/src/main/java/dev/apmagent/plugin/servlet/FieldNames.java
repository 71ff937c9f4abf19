package dev.apmagent.plugin.servlet;

import dev.apmagent.config.WildcardMatcherList;

import java.nio.charset.StandardCharsets;

/**
 * Header and cookie names as the captured context keeps them, each with its {@code sanitize_field_names} decision,
 * looked up by the name's raw bytes (as a container's request buffer holds them, read as ISO-8859-1) or by a String:
 * the application's thread builds no String for a name it has seen before. Names repeat from request to request;
 * matching one against the twelve default patterns is a case-insensitive scan per pattern (1.5 µs per request in the
 * overhead harness's profile), and decoding it into a String is what Tomcat's servlet API costs.
 *
 * <p>A direct-mapped table of {@value #SLOTS} slots: a slot holds one
 * immutable {@link Name} and a colliding name replaces it. Reads and writes are plain and may race: a name's fields
 * are final, so any thread that sees one sees it whole (JLS 17.5), and a lost write only costs a later lookup. A hit
 * costs the hash of the bytes and one comparison and allocates nothing; a miss allocates the name's String and its
 * entry. Names longer than {@value #MAX_CACHED_LENGTH} bytes are decoded and matched every time and never held. The
 * hash of bytes is the hash of their ISO-8859-1 String, so both lookups share the table; names are kept as given
 * (case-sensitive): Tomcat already lower-cases request header names.
 */
public final class FieldNames {

    static final int SLOTS = 256;
    static final int MAX_CACHED_LENGTH = 64;

    private final WildcardMatcherList sanitize;
    private final Name[] slots = new Name[SLOTS];

    public FieldNames(WildcardMatcherList sanitize) {
        this.sanitize = sanitize;
    }

    /** Whether the value of a field of this name is captured as {@code [REDACTED]}; false for null. */
    public boolean isSensitive(String name) {
        return name != null && name(name).sensitive;
    }

    /** The name of {@code length} bytes at {@code offset} of {@code bytes}, read as ISO-8859-1. */
    public Name name(byte[] bytes, int offset, int length) {
        if (length > MAX_CACHED_LENGTH) {
            return create(new String(bytes, offset, length, StandardCharsets.ISO_8859_1), 0);
        }
        int h = 0;
        for (int i = 0; i < length; i++) {
            h = 31 * h + (bytes[offset + i] & 0xFF);
        }
        int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        Name n = slots[slot];
        if (n != null && n.hash == h && n.sameAs(bytes, offset, length)) {
            return n;
        }
        n = create(new String(bytes, offset, length, StandardCharsets.ISO_8859_1), h);
        slots[slot] = n;
        return n;
    }

    /** The name {@code text} (not null). */
    public Name name(String text) {
        if (text.length() > MAX_CACHED_LENGTH) {
            return create(text, 0);
        }
        int h = text.hashCode();
        int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        Name n = slots[slot];
        if (n != null && n.hash == h && n.text.equals(text)) {
            return n;
        }
        n = create(text, h);
        slots[slot] = n;
        return n;
    }

    private Name create(String text, int hash) {
        return new Name(text, hash, !sanitize.isEmpty() && sanitize.matches(text), text.equalsIgnoreCase("cookie"));
    }

    /** A field name as captured, and what to do with its values. */
    public static final class Name {
        /** The name as the captured context keeps it. */
        public final String text;
        final int hash;
        /** Whether its values are captured as {@code [REDACTED]}. */
        public final boolean sensitive;
        /** Whether it is the {@code Cookie} header, whose cookies are captured each by its own name instead. */
        public final boolean cookie;

        Name(String text, int hash, boolean sensitive, boolean cookie) {
            this.text = text;
            this.hash = hash;
            this.sensitive = sensitive;
            this.cookie = cookie;
        }

        boolean sameAs(byte[] bytes, int offset, int length) {
            if (text.length() != length) {
                return false;
            }
            for (int i = 0; i < length; i++) {
                if (text.charAt(i) != (char) (bytes[offset + i] & 0xFF)) {
                    return false;
                }
            }
            return true;
        }
    }
}
