package dev.apmagent.plugin.jdbc;

/**
 * Span names of recently executed SQL, keyed by the identity of the SQL string: the string an application passes to
 * {@code prepareStatement} (or a constant it executes) is the same object on every execution, and looking it up costs
 * one identity hash and one comparison, where parsing it again costs 0.5 to 2 µs (measured on the project's 2-core
 * machine, queries of 40 to 170 characters).
 *
 * <p>Direct-mapped, {@value #SLOTS} slots. A string is admitted on its second sighting in a slot, so SQL built anew for
 * every call (never the same object twice) never allocates an entry; a hit allocates nothing. SQL longer than
 * {@value #MAX_SQL_LENGTH} characters is not cached, which bounds the strings this cache keeps reachable.
 *
 * <p>Deliberate races: slots and sightings are plain fields written by any application thread. An entry is immutable
 * (final fields), so a reader sees either a whole entry or another one; a lost write only costs one more parse.
 */
final class SqlNameCache {

    static final int SLOTS = 1024;
    static final int MAX_SQL_LENGTH = 4096;
    private static final int MASK = SLOTS - 1;

    private final Entry[] entries = new Entry[SLOTS];
    private final int[] sightings = new int[SLOTS];

    /** The cached name of {@code sql} (this very string object), or null. */
    String get(String sql) {
        int h = System.identityHashCode(sql);
        Entry e = entries[h & MASK];
        return e != null && e.sql == sql ? e.name : null;
    }

    /** Offers the name just computed for {@code sql}; kept when the same string was seen in its slot before. */
    void offer(String sql, CharSequence name) {
        if (sql.length() > MAX_SQL_LENGTH) {
            return;
        }
        int h = System.identityHashCode(sql);
        int i = h & MASK;
        if (sightings[i] != h) {
            sightings[i] = h;
            return;
        }
        entries[i] = new Entry(sql, name.toString());
    }

    private static final class Entry {
        final String sql;
        final String name;

        Entry(String sql, String name) {
            this.sql = sql;
            this.name = name;
        }
    }
}
