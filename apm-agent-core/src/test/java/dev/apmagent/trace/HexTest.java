package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HexTest {

    @ParameterizedTest
    @CsvSource({
        "0,                    0000000000000000",
        "1,                    0000000000000001",
        "255,                  00000000000000ff",
        "-1,                   ffffffffffffffff",
        "-9223372036854775808, 8000000000000000",
        "81985529216486895,    0123456789abcdef",
        "-81985529216486896,   fedcba9876543210",
    })
    void writesSixteenLowerCaseDigits(long value, String expected) {
        byte[] bytes = new byte[20];
        Hex.writeLongHex(value, bytes, 2);
        assertEquals(expected, new String(bytes, 2, 16, StandardCharsets.US_ASCII));
        char[] chars = new char[18];
        Hex.writeLongHex(value, chars, 1);
        assertEquals(expected, new String(chars, 1, 16));
        StringBuilder sb = new StringBuilder("x");
        Hex.appendLongHex(value, sb);
        assertEquals("x" + expected, sb.toString());
        assertTrue(Hex.isHex(expected, 0, 16));
        assertEquals(value, Hex.parseLongHex(expected, 0));
        assertEquals(value, Hex.parseLongHex(expected.toUpperCase(), 0));
    }

    @ParameterizedTest
    @CsvSource({"0, 00", "1, 01", "171, ab", "255, ff", "256, 00"})
    void writesByte(int value, String expected) {
        char[] chars = new char[2];
        Hex.writeByteHex(value, chars, 0);
        assertEquals(expected, new String(chars));
        byte[] bytes = new byte[2];
        Hex.writeByteHex(value, bytes, 0);
        assertEquals(expected, new String(bytes, StandardCharsets.US_ASCII));
    }

    @ParameterizedTest
    @CsvSource({"0123456789abcdeg", "0123456789abcde", "-123456789abcdef", "0123456789abcde "})
    void rejectsNonHex(String text) {
        assertFalse(Hex.isHex(text, 0, 16));
    }
}
