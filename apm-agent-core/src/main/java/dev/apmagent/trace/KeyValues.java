package dev.apmagent.trace;

/**
 * A bounded list of name/value pairs (headers, cookies). Values are stored as the application gave them (references,
 * not copies); pairs beyond the capacity are not stored and {@link #add} returns false.
 */
public final class KeyValues {

    /** Pairs kept at most per list. */
    public static final int DEFAULT_CAPACITY = 32;

    private final String[] keys;
    private final CharSequence[] values;
    private int size;

    public KeyValues() {
        this(DEFAULT_CAPACITY);
    }

    public KeyValues(int capacity) {
        keys = new String[capacity];
        values = new CharSequence[capacity];
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return keys.length;
    }

    public String key(int i) {
        return keys[i];
    }

    public CharSequence value(int i) {
        return values[i];
    }

    /** Appends a pair; false (and nothing stored) when full or {@code key} is null. */
    public boolean add(String key, CharSequence value) {
        if (key == null || size == keys.length) {
            return false;
        }
        keys[size] = key;
        values[size] = value;
        size++;
        return true;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public void reset() {
        for (int i = 0; i < size; i++) {
            keys[i] = null;
            values[i] = null;
        }
        size = 0;
    }
}
