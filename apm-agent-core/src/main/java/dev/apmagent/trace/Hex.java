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
}
