package dev.apmagent.trace;

/** Lower-case hexadecimal encoding and decoding of ids without allocation. */
public final class Hex {

    private static final byte[] DIGIT_BYTES = {
        '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
    };
    private static final char[] DIGIT_CHARS = {
        '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
    };

    private Hex() {
    }

    /** Writes {@code v} as 16 lower-case hex characters to {@code dst[off..off+16)}. */
    public static void writeLongHex(long v, byte[] dst, int off) {
        for (int i = 15; i >= 0; i--) {
            dst[off + i] = DIGIT_BYTES[(int) (v & 0xF)];
            v >>>= 4;
        }
    }

    /** Writes {@code v} as 16 lower-case hex characters to {@code dst[off..off+16)}. */
    public static void writeLongHex(long v, char[] dst, int off) {
        for (int i = 15; i >= 0; i--) {
            dst[off + i] = DIGIT_CHARS[(int) (v & 0xF)];
            v >>>= 4;
        }
    }

    /** Writes the low 8 bits of {@code b} as 2 lower-case hex characters. */
    public static void writeByteHex(int b, byte[] dst, int off) {
        dst[off] = DIGIT_BYTES[(b >>> 4) & 0xF];
        dst[off + 1] = DIGIT_BYTES[b & 0xF];
    }

    /** Writes the low 8 bits of {@code b} as 2 lower-case hex characters. */
    public static void writeByteHex(int b, char[] dst, int off) {
        dst[off] = DIGIT_CHARS[(b >>> 4) & 0xF];
        dst[off + 1] = DIGIT_CHARS[b & 0xF];
    }

    /** Appends {@code v} as 16 lower-case hex characters (no allocation once the builder has capacity). */
    public static void appendLongHex(long v, StringBuilder sb) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            sb.append(DIGIT_CHARS[(int) ((v >>> shift) & 0xF)]);
        }
    }

    /**
     * Parses 16 hex characters (either case) starting at {@code off}.
     *
     * @return the value; callers check {@link #isHex(CharSequence, int, int)} first, since any value is a valid id
     */
    public static long parseLongHex(CharSequence s, int off) {
        long v = 0;
        for (int i = 0; i < 16; i++) {
            v = (v << 4) | digit(s.charAt(off + i));
        }
        return v;
    }

    /** Whether {@code s[off..off+len)} exists and consists of hex digits only. */
    public static boolean isHex(CharSequence s, int off, int len) {
        if (s == null || off < 0 || len < 0 || off + len > s.length()) {
            return false;
        }
        for (int i = off; i < off + len; i++) {
            if (digit(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
