package dev.apmagent.report;

import com.dslplatform.json.BareJsonWriter;
import com.dslplatform.json.JsonWriter;
import com.dslplatform.json.NumberConverter;
import dev.apmagent.trace.Hex;

import java.nio.charset.StandardCharsets;

/**
 * The writing primitives every serializer shares: one reusable DSL-JSON {@link JsonWriter}, object/array nesting
 * with automatic commas, pre-encoded field names, strings escaped and truncated without allocation, hex ids, numbers
 * and durations. One instance per serializing thread; not thread-safe.
 *
 * <p>Strings: {@code "}, {@code \} and control characters are escaped; valid surrogate pairs become 4-byte UTF-8;
 * a lone surrogate becomes U+FFFD, so the output is always valid UTF-8 and valid JSON whatever the application
 * stored. Truncation counts UTF-16 chars and never splits a surrogate pair. Short Strings are encoded once per
 * instance and copied after (an identity cache, see {@link #cachedOrEncoded}).
 */
public final class JsonHelper {

    /** Limit of keyword fields in the intake schemas. */
    public static final int KEYWORD_MAX = 1024;
    /** Limit of long text fields (db.statement, messages). */
    public static final int LONG_TEXT_MAX = 10_000;

    private static final int MAX_DEPTH = 32;
    /** Slots of the identity cache of short strings (see {@link #cachedOrEncoded}); a power of two. */
    static final int CACHE_SLOTS = 256;
    /** Longest String the cache keeps, in chars. */
    static final int CACHE_MAX_CHARS = 32;
    /** Bytes per cache slot: longer encodings (escapes, non-ASCII text) are not cached. */
    static final int CACHE_SLOT_BYTES = 64;
    private static final byte[] NULL = ascii("null");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] HEX = ascii("0123456789abcdef");
    private static final byte[] LONG_MIN = ascii(Long.toString(Long.MIN_VALUE));
    /** "00" to "99": the two digits of i at 2i and 2i + 1. */
    private static final byte[] DIGIT_PAIRS = new byte[200];
    private static final byte[] REPLACEMENT = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    private final JsonWriter jw;
    private final byte[] scratch = new byte[LONG_TEXT_MAX * 6 + 2];
    /** Slot i of the string cache: the String {@code cacheKeys[i]}, encoded in quotes at {@code i * CACHE_SLOT_BYTES}. */
    private final String[] cacheKeys = new String[CACHE_SLOTS];
    private final int[] cacheLengths = new int[CACHE_SLOTS];
    private final byte[] cacheBytes = new byte[CACHE_SLOTS * CACHE_SLOT_BYTES];
    private final boolean[] hasMember = new boolean[MAX_DEPTH];
    private int depth = -1;
    /** Set after a member name: the value that follows needs no separator. */
    private boolean pendingValueAfterName;
    /** Chars consumed by the last {@link #encodeBody} call. */
    private int consumed;
    /** The text of the last double written by {@link #number(double)}, and its bits; empty at first. */
    private final byte[] lastDoubleText = new byte[32];
    private int lastDoubleLength;
    private long lastDoubleBits;

    public JsonHelper() {
        this(16 * 1024);
    }

    public JsonHelper(int initialBufferSize) {
        this.jw = BareJsonWriter.create(initialBufferSize);
    }

    /** Pre-encodes a field name as {@code "name":}. */
    public static byte[] name(String name) {
        return ascii("\"" + name + "\":");
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Clears the output; the buffer keeps its capacity. */
    public void reset() {
        jw.reset();
        depth = -1;
        pendingValueAfterName = false;
    }

    public int size() {
        return jw.size();
    }

    /** The output so far; valid up to {@link #size()}; the array is reused. */
    public byte[] buffer() {
        return jw.getByteBuffer();
    }

    // ---- structure

    public void startObject() {
        value();
        jw.writeByte(JsonWriter.OBJECT_START);
        hasMember[++depth] = false;
    }

    public void endObject() {
        jw.writeByte(JsonWriter.OBJECT_END);
        depth--;
    }

    public void startArray() {
        value();
        jw.writeByte(JsonWriter.ARRAY_START);
        hasMember[++depth] = false;
    }

    public void endArray() {
        jw.writeByte(JsonWriter.ARRAY_END);
        depth--;
    }

    /** Writes the separator and the pre-encoded name of the next member of the current object. */
    public void field(byte[] encodedName) {
        if (hasMember[depth]) {
            jw.writeByte(JsonWriter.COMMA);
        }
        hasMember[depth] = true;
        jw.writeAscii(encodedName);
        pendingValueAfterName = true;
    }

    /** Like {@link #field(byte[])} for a name given as its raw UTF-8 bytes (no quotes; must need no escaping). */
    public void fieldUtf8(byte[] utf8Name) {
        if (hasMember[depth]) {
            jw.writeByte(JsonWriter.COMMA);
        }
        hasMember[depth] = true;
        jw.writeByte(JsonWriter.QUOTE);
        jw.writeAscii(utf8Name);
        jw.writeByte(JsonWriter.QUOTE);
        jw.writeByte(JsonWriter.SEMI);
        pendingValueAfterName = true;
    }

    /** A member whose name is only known at run time (header names): escaped and truncated like a keyword. */
    public void fieldName(CharSequence name) {
        if (hasMember[depth]) {
            jw.writeByte(JsonWriter.COMMA);
        }
        hasMember[depth] = true;
        if (name instanceof String) {
            cachedOrEncoded((String) name, KEYWORD_MAX);
        } else {
            int len = encode(name == null ? "" : name, 0, name == null ? 0 : name.length(), KEYWORD_MAX);
            jw.writeRaw(scratch, 0, len);
        }
        jw.writeByte(JsonWriter.SEMI);
        pendingValueAfterName = true;
    }

    /** Writes {@code "name":"value"} when value is not null. */
    public void optionalString(byte[] encodedName, CharSequence value) {
        if (value != null) {
            field(encodedName);
            string(value, KEYWORD_MAX);
        }
    }


    /** Called before every value: inside an array, separates it from the previous element. */
    private void value() {
        if (pendingValueAfterName) {
            pendingValueAfterName = false;
            return;
        }
        if (depth >= 0) {
            if (hasMember[depth]) {
                jw.writeByte(JsonWriter.COMMA);
            }
            hasMember[depth] = true;
        }
    }

    public void newLine() {
        jw.writeByte((byte) '\n');
    }

    // ---- values

    public void bool(boolean b) {
        value();
        jw.writeAscii(b ? TRUE : FALSE);
    }

    public void number(long n) {
        value();
        writeLong(n);
    }

    /**
     * Decimal digits of {@code n}, written from the end of the scratch buffer, two at a time from a table, in int
     * arithmetic below 10^8: a timestamp in microseconds (16 digits) takes one long division and eight int divisions
     * by 100, where one long division per digit was a fifth of the serializers' samples. DSL-JSON's
     * {@code NumberConverter} does the same, but loading it spins the lambdas of all its converters; it is left for
     * doubles, which only the reporter thread formats (and so loads it there, not in {@code premain}).
     */
    private void writeLong(long n) {
        if (n == Long.MIN_VALUE) {
            jw.writeAscii(LONG_MIN);
            return;
        }
        byte[] s = scratch;
        int pos = s.length;
        long rest = n < 0 ? -n : n;
        while (rest >= 100_000_000L) {
            long q = rest / 100_000_000L;
            int low = (int) (rest - q * 100_000_000L);
            for (int k = 0; k < 4; k++) {
                int q2 = low / 100;
                int pair = (low - q2 * 100) << 1;
                s[--pos] = DIGIT_PAIRS[pair + 1];
                s[--pos] = DIGIT_PAIRS[pair];
                low = q2;
            }
            rest = q;
        }
        int i = (int) rest;
        while (i >= 100) {
            int q = i / 100;
            int pair = (i - q * 100) << 1;
            s[--pos] = DIGIT_PAIRS[pair + 1];
            s[--pos] = DIGIT_PAIRS[pair];
            i = q;
        }
        if (i >= 10) {
            int pair = i << 1;
            s[--pos] = DIGIT_PAIRS[pair + 1];
            s[--pos] = DIGIT_PAIRS[pair];
        } else {
            s[--pos] = (byte) ('0' + i);
        }
        if (n < 0) {
            s[--pos] = '-';
        }
        jw.writeRaw(s, pos, s.length - pos);
    }

    /**
     * A finite double; NaN and infinities (not representable in JSON) are written as 0. The last value's text is kept:
     * every transaction and span carries the same {@code sample_rate}, and formatting a double (Grisu) was about a tenth
     * of the serializers' samples in the overhead harness's profile.
     */
    public void number(double d) {
        value();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            jw.writeByte((byte) '0');
            return;
        }
        long bits = Double.doubleToRawLongBits(d);
        if (bits == lastDoubleBits && lastDoubleLength > 0) {
            jw.writeRaw(lastDoubleText, 0, lastDoubleLength);
            return;
        }
        int start = jw.size();
        NumberConverter.serialize(d, jw);
        int len = jw.size() - start;
        if (len <= lastDoubleText.length) {
            System.arraycopy(jw.getByteBuffer(), start, lastDoubleText, 0, len);
            lastDoubleBits = bits;
            lastDoubleLength = len;
        }
    }

    /** Milliseconds with microsecond precision from nanoseconds, e.g. 12345678 ns gives 12.345 (no allocation). */
    public void durationMillis(long nanos) {
        value();
        long micros = nanos <= 0 ? 0 : nanos / 1000;
        writeLong(micros / 1000);
        int frac = (int) (micros % 1000);
        byte[] s = scratch;
        s[0] = '.';
        s[1] = (byte) ('0' + frac / 100);
        s[2] = (byte) ('0' + (frac / 10) % 10);
        s[3] = (byte) ('0' + frac % 10);
        jw.writeRaw(s, 0, 4);
    }

    /** A 64-bit id as 16 lower-case hex chars in quotes. */
    public void hex64(long id) {
        value();
        byte[] s = scratch;
        s[0] = '"';
        writeHex(id, s, 1);
        s[17] = '"';
        jw.writeRaw(s, 0, 18);
    }

    /** A 128-bit id as 32 lower-case hex chars in quotes. */
    public void hex128(long high, long low) {
        value();
        byte[] s = scratch;
        s[0] = '"';
        writeHex(high, s, 1);
        writeHex(low, s, 17);
        s[33] = '"';
        jw.writeRaw(s, 0, 34);
    }

    private static void writeHex(long v, byte[] dst, int off) {
        Hex.writeLongHex(v, dst, off);
    }

    /** A keyword string (at most 1024 chars); null is written as JSON null. */
    public void string(CharSequence s) {
        string(s, KEYWORD_MAX);
    }

    /** A string of at most {@code maxChars} UTF-16 chars (never splitting a surrogate pair); null gives JSON null. */
    public void string(CharSequence s, int maxChars) {
        value();
        if (s == null) {
            jw.writeAscii(NULL);
            return;
        }
        if (s instanceof String) {
            cachedOrEncoded((String) s, maxChars);
            return;
        }
        int len = encode(s, 0, s.length(), maxChars);
        jw.writeRaw(scratch, 0, len);
    }

    /**
     * Writes a String through a direct-mapped identity cache. The short strings of an event are mostly the same
     * instances event after event: span types, subtypes and actions, db types, instances and users, service target
     * names, framework names, header names, the serializers' constants. A hit (this very instance in its slot) copies
     * the bytes encoded before: the hash the String has cached, one reference comparison and a copy of at most
     * {@value #CACHE_SLOT_BYTES} bytes. Only String instances are kept, as they cannot change; a StringBuilder (names,
     * statements, URLs) may hold other text at the next call. A String longer than {@value #CACHE_MAX_CHARS} chars or
     * than {@code maxChars} (so that it would be cut), or whose encoding exceeds {@value #CACHE_SLOT_BYTES} bytes, is
     * encoded every time. A miss encodes as usual and takes the slot. No allocation either way. Memory per helper:
     * {@value #CACHE_SLOTS} slots of {@value #CACHE_SLOT_BYTES} bytes (16 KB) and as many references and lengths,
     * keeping alive at most {@value #CACHE_SLOTS} strings of at most {@value #CACHE_MAX_CHARS} chars.
     */
    private void cachedOrEncoded(String s, int maxChars) {
        int length = s.length();
        if (length > CACHE_MAX_CHARS || length > maxChars) {
            jw.writeRaw(scratch, 0, encode(s, 0, length, maxChars));
            return;
        }
        int hash = s.hashCode();
        int slot = (hash ^ (hash >>> 16)) & (CACHE_SLOTS - 1);
        int offset = slot * CACHE_SLOT_BYTES;
        if (cacheKeys[slot] == s) {
            jw.writeRaw(cacheBytes, offset, cacheLengths[slot]);
            return;
        }
        int len = encode(s, 0, length, maxChars);
        jw.writeRaw(scratch, 0, len);
        if (len <= CACHE_SLOT_BYTES) {
            System.arraycopy(scratch, 0, cacheBytes, offset, len);
            cacheLengths[slot] = len;
            cacheKeys[slot] = s;
        }
    }

    /** A pre-encoded ASCII value (for example a constant already in quotes). */
    public void raw(byte[] encoded) {
        value();
        jw.writeAscii(encoded);
    }

    private int encode(CharSequence s, int from, int to, int maxChars) {
        byte[] d = scratch;
        int pos = 0;
        d[pos++] = '"';
        pos = encodeBody(s, from, to, Math.min(maxChars, LONG_TEXT_MAX), d, pos);
        d[pos++] = '"';
        return pos;
    }

    /** Encodes up to {@code budget} chars of s[from, to) into d at pos; stores the chars consumed in {@link #consumed}. */
    private int encodeBody(CharSequence s, int from, int to, int budget, byte[] d, int pos) {
        int end = Math.min(to, from + budget);
        int i = from;
        while (i < end) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    d[pos++] = (byte) c;
                } else {
                    pos = escapeAscii(c, d, pos);
                }
                i++;
            } else if (c < 0x800) {
                d[pos++] = (byte) (0xC0 | (c >> 6));
                d[pos++] = (byte) (0x80 | (c & 0x3F));
                i++;
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                    if (i + 1 >= end) {
                        break; // the pair does not fit in the budget: never split it
                    }
                    int cp = Character.toCodePoint(c, s.charAt(i + 1));
                    d[pos++] = (byte) (0xF0 | (cp >> 18));
                    d[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    d[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    d[pos++] = (byte) (0x80 | (cp & 0x3F));
                    i += 2;
                } else {
                    pos = replacement(d, pos);
                    i++;
                }
            } else if (Character.isLowSurrogate(c)) {
                pos = replacement(d, pos);
                i++;
            } else {
                d[pos++] = (byte) (0xE0 | (c >> 12));
                d[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                d[pos++] = (byte) (0x80 | (c & 0x3F));
                i++;
            }
        }
        consumed = i - from;
        return pos;
    }

    private static int replacement(byte[] d, int pos) {
        d[pos] = REPLACEMENT[0];
        d[pos + 1] = REPLACEMENT[1];
        d[pos + 2] = REPLACEMENT[2];
        return pos + 3;
    }

    private static int escapeAscii(char c, byte[] d, int pos) {
        d[pos++] = '\\';
        switch (c) {
            case '"':
                d[pos++] = '"';
                break;
            case '\\':
                d[pos++] = '\\';
                break;
            case '\n':
                d[pos++] = 'n';
                break;
            case '\r':
                d[pos++] = 'r';
                break;
            case '\t':
                d[pos++] = 't';
                break;
            case '\b':
                d[pos++] = 'b';
                break;
            case '\f':
                d[pos++] = 'f';
                break;
            default:
                d[pos++] = 'u';
                d[pos++] = '0';
                d[pos++] = '0';
                d[pos++] = HEX[(c >> 4) & 0xf];
                d[pos++] = HEX[c & 0xf];
        }
        return pos;
    }
}
