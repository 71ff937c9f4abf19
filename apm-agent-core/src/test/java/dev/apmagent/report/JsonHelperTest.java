package dev.apmagent.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The exact bytes {@link JsonHelper#string(CharSequence, int)} writes, on every path: plain ASCII, escapes, 2- and
 * 3-byte UTF-8, surrogate pairs, lone surrogates, and truncation at and around the limits, for a String, a
 * StringBuilder and any other CharSequence. The oracle is {@link #reference}, a copy of the helper's char-by-char
 * encoder as it was when these tests were written (the output the serializer tests and the intake schemas were checked
 * against): a faster path must write the very same bytes.
 */
class JsonHelperTest {

    private static final int[] LIMITS = {0, 1, 2, 3, 7, 63, 64, 65, 1023, 1024, 1025, 9_999, 10_000, 10_001, 20_000};

    static Stream<String> strings() {
        char[] longAscii = new char[12_000];
        Arrays.fill(longAscii, 'x');
        char[] longPairs = new char[12_000];
        for (int i = 0; i < longPairs.length; i += 2) {
            longPairs[i] = '\uD83D';
            longPairs[i + 1] = '\uDE00';
        }
        StringBuilder allChars = new StringBuilder();
        for (char c = 0; c < 0x900; c++) {
            allChars.append(c);
        }
        return Stream.of(
                "",
                "a",
                "GET /api/orders/{id}",
                "SELECT o.id FROM orders o WHERE o.customer_id = ? AND o.id = ?",
                "\"",
                "\\",
                "quote \" backslash \\ slash / del \u007f",
                "control \u0000 \u0001 \u001f \b \f \n \r \t end",
                "\u00e4\u00f6\u00fc \u00ff \u0100 \u07ff \u0800 \u20ac \u2028 \u2029 \ud7ff \ue000 \uFFFD \uFFFE \uFFFF",
                "non-BMP \uD83D\uDE00 \uD834\uDD1E \uDBFF\uDFFF \uD800\uDC00",
                "\uD83D\uDE00",
                "\uD83D",
                "\uDE00",
                "lone high \uD800 then text",
                "lone low \uDC00 at start",
                "high at end \uD83D",
                "reversed pair \uDE00\uD83D",
                "two highs \uD83D\uD83D\uDE00",
                "a\uD83D\uDE00b",
                "ab\uD83D\uDE00",
                new String(longAscii),
                new String(longAscii, 0, 1023) + "\uD83D\uDE00 after",
                new String(longAscii, 0, 1022) + "\uD83D\uDE00 after",
                new String(longAscii, 0, 9_999) + "\uD83D\uDE00 after",
                new String(longAscii, 0, 1023) + "\"\u0001",
                new String(longPairs),
                allChars.toString(),
                random(new Random(1), 3_000),
                random(new Random(2), 11_000));
    }

    /** Random chars biased to the interesting ranges: ASCII, escapes, 2- and 3-byte, surrogates in any order. */
    private static String random(Random r, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            switch (r.nextInt(6)) {
                case 0: sb.append((char) r.nextInt(0x20)); break;
                case 1: sb.append((char) (0x80 + r.nextInt(0x780))); break;
                case 2: sb.append((char) (0xD800 + r.nextInt(0x800))); break;
                case 3: sb.append((char) r.nextInt(0x10000)); break;
                default: sb.append((char) (0x20 + r.nextInt(0x60))); break;
            }
        }
        return sb.toString();
    }

    @ParameterizedTest
    @MethodSource("strings")
    void everyPathWritesExactlyWhatTheCharByCharEncoderWrote(String text) {
        for (int max : LIMITS) {
            byte[] expected = reference(text, max);
            assertArrayEquals(expected, written(text, max), "String, max " + max);
            assertArrayEquals(expected, written(new StringBuilder(text), max), "StringBuilder, max " + max);
            assertArrayEquals(expected, written(CharBuffer.wrap(text), max), "CharBuffer, max " + max);
            // a String that is a substring of a longer one, and one whose array is larger than its content
            assertArrayEquals(expected, written(("<<" + text + ">>").substring(2, 2 + text.length()), max), "substring, max " + max);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "plain          | '\"plain\"'",
            "a\"b           | '\"a\\\"b\"'",
            "a\\b           | '\"a\\\\b\"'",
            "tab\there      | '\"tab\\there\"'",
    })
    void escapesAreTheShortFormsOfJson(String text, String expected) {
        assertEquals(expected, new String(written(text, 1024), StandardCharsets.UTF_8));
    }

    @Test
    void controlCharsAndNonAsciiHaveTheirExactBytes() {
        assertEquals("\"\\u0000\\u001f\\b\\f\\n\\r\\t\u007f\"",
                new String(written("\u0000\u001f\b\f\n\r\t\u007f", 1024), StandardCharsets.UTF_8));
        assertArrayEquals(new byte[] {'"', (byte) 0xC3, (byte) 0xA4, (byte) 0xE2, (byte) 0x82, (byte) 0xAC,
                (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80, '"'}, written("\u00e4\u20ac\uD83D\uDE00", 1024));
        assertArrayEquals(new byte[] {'"', (byte) 0xEF, (byte) 0xBF, (byte) 0xBD, 'x', (byte) 0xEF, (byte) 0xBF,
                (byte) 0xBD, '"'}, written("\uDE00x\uD83D", 1024));
    }

    @Test
    void truncationCountsCharsAndNeverSplitsAPair() {
        assertEquals("\"ab\"", new String(written("abc", 2), StandardCharsets.UTF_8));
        assertEquals("\"a\"", new String(written("a\uD83D\uDE00", 2), StandardCharsets.UTF_8));
        assertEquals("\"a\uD83D\uDE00\"", new String(written("a\uD83D\uDE00", 3), StandardCharsets.UTF_8));
        assertEquals("\"\"", new String(written("abc", 0), StandardCharsets.UTF_8));
        assertEquals("\"\"", new String(written("abc", -1), StandardCharsets.UTF_8));
        // a lone high surrogate at the limit is replaced, not dropped
        assertEquals("\"a\uFFFD\"", new String(written("a\uD83Dx", 2), StandardCharsets.UTF_8));
        // never more than LONG_TEXT_MAX chars, whatever the caller asks
        assertEquals(JsonHelper.LONG_TEXT_MAX + 2, written(new String(new char[20_000]).replace('\0', 'y'), 50_000).length);
    }

    /** Header names go through the same encoder (and the same cache for Strings), followed by a colon. */
    @Test
    void fieldNamesAreEncodedLikeStrings() {
        JsonHelper h = new JsonHelper(16);
        String accept = "accept";
        for (int i = 0; i < 3; i++) {
            h.reset();
            h.startObject();
            h.fieldName(new StringBuilder("x-\u00e4\"\uD83D"));
            h.string("v");
            h.fieldName(null);
            h.number(1);
            h.fieldName(accept);
            h.string(accept);
            h.fieldName("x-\u00e4\"\uD83D");
            h.string("w");
            h.endObject();
            assertEquals("{\"x-\u00e4\\\"\uFFFD\":\"v\",\"\":1,\"accept\":\"accept\",\"x-\u00e4\\\"\uFFFD\":\"w\"}",
                    new String(h.buffer(), 0, h.size(), StandardCharsets.UTF_8));
        }
    }

    /** A helper with a tiny buffer grows it: a string in the middle of a line lands whole after what came before. */
    @Test
    void theBufferGrowsForLongStrings() {
        JsonHelper h = new JsonHelper(8);
        h.startArray();
        String big = new String(new char[10_000]).replace('\0', '\u0001');
        for (int i = 0; i < 3; i++) {
            h.string(big, JsonHelper.LONG_TEXT_MAX);
            h.hex64(0x0123456789abcdefL);
            h.hex128(1, 2);
        }
        h.endArray();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write('[');
        for (int i = 0; i < 3; i++) {
            if (i > 0) {
                expected.write(',');
            }
            byte[] s = reference(big, JsonHelper.LONG_TEXT_MAX);
            expected.write(s, 0, s.length);
            byte[] ids = (",\"0123456789abcdef\",\"0000000000000001" + "0000000000000002\"").getBytes(StandardCharsets.US_ASCII);
            expected.write(ids, 0, ids.length);
        }
        expected.write(']');
        assertArrayEquals(expected.toByteArray(), Arrays.copyOf(h.buffer(), h.size()));
    }

    /**
     * One helper, so that the identity cache of short Strings is in play: every string, written again and again, at
     * every limit, gives the bytes of the reference encoder, whatever was written before it.
     */
    @Test
    void theStringCacheNeverChangesWhatIsWritten() {
        JsonHelper h = new JsonHelper(64);
        Random r = new Random(3);
        String[] pool = new String[4 * JsonHelper.CACHE_SLOTS];
        for (int i = 0; i < pool.length; i++) {
            // short ones that fit a slot, some with escapes or non-ASCII that do not fit, some longer than cached
            pool[i] = random(r, r.nextInt(4) == 0 ? r.nextInt(3 * JsonHelper.CACHE_MAX_CHARS) : 1 + r.nextInt(12));
        }
        int[] limits = {0, 1, 5, JsonHelper.CACHE_MAX_CHARS - 1, JsonHelper.CACHE_MAX_CHARS, 1024};
        for (int i = 0; i < 50_000; i++) {
            String s = pool[r.nextInt(pool.length)];
            int max = limits[r.nextInt(limits.length)];
            assertArrayEquals(reference(s, max), written(h, s, max), "'" + s + "' max " + max);
        }
        String plain = "postgresql";
        assertEquals("\"postgresql\"", new String(written(h, plain, 1024), StandardCharsets.UTF_8));
        assertEquals("\"postgresql\"", new String(written(h, plain, 1024), StandardCharsets.UTF_8), "a hit");
        assertEquals("\"post\"", new String(written(h, plain, 4), StandardCharsets.UTF_8), "cached, then cut");
        assertEquals("\"postgresql\"", new String(written(h, new String(plain), 1024), StandardCharsets.UTF_8));
    }

    /** A StringBuilder is never cached: the same instance with other text gives the other text. */
    @Test
    void aMutatedBuilderIsEncodedAfresh() {
        JsonHelper h = new JsonHelper(64);
        StringBuilder sb = new StringBuilder("db");
        for (int i = 0; i < 3; i++) {
            assertEquals("\"db\"", new String(written(h, sb, 1024), StandardCharsets.UTF_8));
        }
        sb.setLength(0);
        sb.append("dx");
        assertEquals("\"dx\"", new String(written(h, sb, 1024), StandardCharsets.UTF_8));
        sb.append('\u00e4');
        assertEquals("\"dx\u00e4\"", new String(written(h, sb, 1024), StandardCharsets.UTF_8));
    }

    /** Strings that share a slot replace each other; each still reads back as itself. */
    @Test
    void stringsThatShareASlotEvictEachOther() {
        JsonHelper h = new JsonHelper(64);
        // "Aa" and "BB" have the same String.hashCode, so the same slot
        String a = "xAa";
        String b = "xBB";
        assertEquals(a.hashCode(), b.hashCode());
        for (int i = 0; i < 3; i++) {
            assertEquals("\"xAa\"", new String(written(h, a, 1024), StandardCharsets.UTF_8));
            assertEquals("\"xBB\"", new String(written(h, b, 1024), StandardCharsets.UTF_8));
            assertEquals("\"xBB\"", new String(written(h, b, 1024), StandardCharsets.UTF_8));
        }
    }

    private static byte[] written(JsonHelper h, CharSequence s, int max) {
        h.reset();
        h.string(s, max);
        return Arrays.copyOf(h.buffer(), h.size());
    }

    /** Every digit count and both signs, at and around the powers of ten and the 10^8 split, and random values. */
    @Test
    void longsOfEveryLengthAreTheirDecimalText() {
        JsonHelper h = new JsonHelper(16);
        long p = 1;
        for (int digits = 1; digits <= 19; digits++) {
            for (long n : new long[] {p - 1, p, p + 1, 2 * p - 1, 9 * p + (p - 1)}) {
                assertEquals(Long.toString(n), writtenLong(h, n));
                assertEquals(Long.toString(-n), writtenLong(h, -n));
            }
            p = digits < 19 ? p * 10 : p;
        }
        Random r = new Random(4);
        for (int i = 0; i < 100_000; i++) {
            long n = r.nextLong() >> r.nextInt(64);
            assertEquals(Long.toString(n), writtenLong(h, n));
        }
        for (long n : new long[] {Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 1_764_125_000_123_456L}) {
            assertEquals(Long.toString(n), writtenLong(h, n));
        }
    }

    private static String writtenLong(JsonHelper h, long n) {
        h.reset();
        h.number(n);
        return new String(h.buffer(), 0, h.size(), StandardCharsets.US_ASCII);
    }

    private static byte[] written(CharSequence s, int max) {
        JsonHelper h = new JsonHelper(64);
        h.string(s, max);
        return Arrays.copyOf(h.buffer(), h.size());
    }

    /** The helper's encoder as it was: char by char through charAt, escaped, cut, lone surrogates replaced. */
    static byte[] reference(CharSequence s, int maxChars) {
        ByteArrayOutputStream d = new ByteArrayOutputStream();
        int to = s.length();
        int end = Math.min(to, Math.min(maxChars, JsonHelper.LONG_TEXT_MAX));
        d.write('"');
        int i = 0;
        while (i < end) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    d.write(c);
                } else {
                    d.write('\\');
                    switch (c) {
                        case '"': d.write('"'); break;
                        case '\\': d.write('\\'); break;
                        case '\n': d.write('n'); break;
                        case '\r': d.write('r'); break;
                        case '\t': d.write('t'); break;
                        case '\b': d.write('b'); break;
                        case '\f': d.write('f'); break;
                        default:
                            byte[] u = String.format("u%04x", (int) c).getBytes(StandardCharsets.US_ASCII);
                            d.write(u, 0, u.length);
                    }
                }
                i++;
            } else if (c < 0x800) {
                d.write(0xC0 | (c >> 6));
                d.write(0x80 | (c & 0x3F));
                i++;
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                    if (i + 1 >= end) {
                        break;
                    }
                    int cp = Character.toCodePoint(c, s.charAt(i + 1));
                    d.write(0xF0 | (cp >> 18));
                    d.write(0x80 | ((cp >> 12) & 0x3F));
                    d.write(0x80 | ((cp >> 6) & 0x3F));
                    d.write(0x80 | (cp & 0x3F));
                    i += 2;
                } else {
                    d.write(0xEF);
                    d.write(0xBF);
                    d.write(0xBD);
                    i++;
                }
            } else if (Character.isLowSurrogate(c)) {
                d.write(0xEF);
                d.write(0xBF);
                d.write(0xBD);
                i++;
            } else {
                d.write(0xE0 | (c >> 12));
                d.write(0x80 | ((c >> 6) & 0x3F));
                d.write(0x80 | (c & 0x3F));
                i++;
            }
        }
        d.write('"');
        return d.toByteArray();
    }
}
