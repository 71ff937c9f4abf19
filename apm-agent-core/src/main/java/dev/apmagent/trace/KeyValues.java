package dev.apmagent.trace;

import java.nio.charset.StandardCharsets;

/**
 * A bounded list of name/value pairs (headers, cookies). Values are stored as the application gave them (references,
 * not copies), or, for values that exist only as bytes in a container's buffer, copied into a buffer this list owns
 * ({@link #addLatin1}): allocation-free once the buffer has grown to what the requests need, and bounded by
 * {@link #MAX_VALUE_LENGTH} bytes per value. Pairs beyond the capacity are not stored and {@code add} returns false.
 * One writer (the request's thread), read by the reporter after the hand-off.
 */
public final class KeyValues {

    /** Pairs kept at most per list. */
    public static final int DEFAULT_CAPACITY = 32;

    /** Bytes of a copied value kept at most: the serializer cuts keywords to as many characters anyway. */
    public static final int MAX_VALUE_LENGTH = 1024;

    private static final int FIRST_BUFFER_SIZE = 1024;
    /** The most of the copy buffer a reset list keeps (as {@code Texts.clear} bounds the pooled builders). */
    private static final int RETAINED_BUFFER_SIZE = 4096;

    private final String[] keys;
    private final CharSequence[] values;
    private int size;

    /** Copied values, back to back; null until the first copy. */
    private byte[] copied;
    private int bytesUsed;
    /** One reusable view per pair, made on the first copy into that pair. */
    private Latin1Value[] copiedViews;

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

    /**
     * Appends a pair whose value is {@code length} bytes of {@code src} at {@code offset}, read as ISO-8859-1 (as HTTP
     * header bytes are): the bytes are copied, at most {@link #MAX_VALUE_LENGTH} of them, into this list's own buffer,
     * and the value is a view of them ({@link CharSequence}; its {@code toString()} builds a String). False (and
     * nothing stored) when full or {@code key} is null.
     */
    public boolean addLatin1(String key, byte[] src, int offset, int length) {
        if (key == null || size == keys.length) {
            return false;
        }
        int n = Math.max(0, Math.min(length, MAX_VALUE_LENGTH));
        if (copied == null || bytesUsed + n > copied.length) {
            grow(bytesUsed + n);
        }
        System.arraycopy(src, offset, copied, bytesUsed, n);
        if (copiedViews == null) {
            copiedViews = new Latin1Value[keys.length];
        }
        Latin1Value view = copiedViews[size];
        if (view == null) {
            view = copiedViews[size] = new Latin1Value(this);
        }
        view.offset = bytesUsed;
        view.length = n;
        bytesUsed += n;
        keys[size] = key;
        values[size] = view;
        size++;
        return true;
    }

    private void grow(int needed) {
        int capacity = copied == null ? FIRST_BUFFER_SIZE : copied.length;
        while (capacity < needed) {
            capacity *= 2; // at most capacity() * MAX_VALUE_LENGTH is ever needed
        }
        byte[] grown = new byte[capacity];
        if (copied != null) {
            System.arraycopy(copied, 0, grown, 0, bytesUsed);
        }
        copied = grown;
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
        bytesUsed = 0;
        if (copied != null && copied.length > RETAINED_BUFFER_SIZE) {
            copied = null; // bounded retention per pooled event: a request with huge headers does not pin its buffer
        }
    }

    /** A copied value: bytes of the owner's buffer, one char per byte (ISO-8859-1). */
    static final class Latin1Value implements CharSequence {
        private final KeyValues owner;
        int offset;
        int length;

        Latin1Value(KeyValues owner) {
            this.owner = owner;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            if (index < 0 || index >= length) {
                throw new IndexOutOfBoundsException("index " + index + ", length " + length);
            }
            return (char) (owner.copied[offset + index] & 0xFF);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return toString().substring(start, end);
        }

        @Override
        public String toString() {
            return new String(owner.copied, offset, length, StandardCharsets.ISO_8859_1);
        }
    }
}
