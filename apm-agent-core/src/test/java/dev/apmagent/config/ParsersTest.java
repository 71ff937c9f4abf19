package dev.apmagent.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParsersTest {

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource({"true, true", "TRUE, true", "' false ', false", "False, false"})
    void booleans(String raw, boolean expected) {
        assertEquals(expected, Parsers.BOOLEAN.parse(raw));
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource({"42, 42", "' -7 ', -7", "0, 0", "2147483647, 2147483647"})
    void integers(String raw, int expected) {
        assertEquals(expected, Parsers.INTEGER.parse(raw));
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource({"0.25, 0.25", "1, 1.0", "' 1e-3 ', 0.001", "-2.5, -2.5"})
    void doubles(String raw, double expected) {
        assertEquals(expected, Parsers.DOUBLE.parse(raw));
    }

    @ParameterizedTest(name = "''{0}'' in {1} -> {2} ms")
    @CsvSource({
            "500ms, ms, 500", "5s, ms, 5000", "1m, ms, 60000", "2h, ms, 7200000", "' 5 s ', ms, 5000",
            "10, s, 10000", "10, ms, 10", "3, m, 180000", "0, s, 0", "5MS, s, 5", "+5s, ms, 5000",
    })
    void durations(String raw, String defaultUnit, long expectedMillis) {
        assertEquals(expectedMillis, Parsers.durationMillis(defaultUnit).parse(raw));
    }

    @ParameterizedTest(name = "''{0}'' -> {1} bytes")
    @CsvSource({"768kb, 786432", "4mb, 4194304", "1gb, 1073741824", "100b, 100", "100, 100", "' 2 KB ', 2048", "0, 0"})
    void sizes(String raw, long expected) {
        assertEquals(expected, Parsers.BYTES.parse(raw));
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {"a,b | 2", "' a , ,b,' | 2", "'' | 0", "jdbc | 1"})
    void lists(String raw, int size) {
        assertEquals(size, Parsers.LIST.parse(raw).size());
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
            "http://localhost:8200 | http://localhost:8200",
            "' https://apm.example.com/ ' | https://apm.example.com",
            "HTTP://x:1/prefix | HTTP://x:1/prefix",
    })
    void urls(String raw, String expected) {
        assertEquals(expected, Parsers.HTTP_URL.parse(raw));
    }

    /** Every malformed value fails with a reason a user can act on. */
    @ParameterizedTest(name = "{0} ''{1}'' fails: {2}")
    @CsvSource(delimiter = '|', value = {
            "boolean  | yes          | expected true or false",
            "boolean  | ''           | expected true or false",
            "integer  | 1.5          | expected a whole number",
            "integer  | 99999999999  | expected a whole number",
            "integer  | ''           | expected a whole number",
            "double   | abc          | expected a number",
            "double   | NaN          | expected a finite number",
            "double   | Infinity     | expected a finite number",
            "duration | 5 sec        | unknown duration unit 'sec'",
            "duration | 1.5s         | expected a duration",
            "duration | -5s          | cannot be negative",
            "duration | s            | expected a duration",
            "duration | 99999999999999999h | too large",
            "size     | 5 tb         | unknown size unit 'tb'",
            "size     | kb           | expected a size",
            "size     | -1kb         | cannot be negative",
            "size     | 99999999999999gb | too large",
            "url      | localhost:8200 | expected an http:// or https:// URL",
            "url      | ftp://x      | expected an http:// or https:// URL",
            "url      | http://      | not a URL",
            "url      | 'http://a b' | not a URL",
            "url      | http://apm:99999 | the port 99999 is out of range (1 to 65535)",
            "url      | http://apm:0 | the port 0 is out of range",
            "url      | http://u:p@apm:9999999999 | the port is out of range",
            "urls     | 'http://a, b' | entry 2",
            "range    | 11           | must be between 0 and 10",
            "rate     | 1.5          | must be between 0.0 and 1.0",
            "enum     | fast         | expected one of a, b",
            "atleast1s | 999ms       | must be at least 1s",
            "atleast1s | 0           | must be at least 1s",
            "offor1s  | 1ms          | must be 0 (off) or at least 1s",
            "offor1s  | 0.5s         | expected a duration",
            "list     | ',,,'        | the list has no entries",
            "list     | ' , ,'       | the list has no entries",
            "wildcards | ',,'        | the list has no entries",
            "urls     | ','          | the list has no entries",
    })
    void malformed(String type, String raw, String reason) {
        ConfigOption.ValueParser<?> parser;
        switch (type) {
            case "boolean": parser = Parsers.BOOLEAN; break;
            case "integer": parser = Parsers.INTEGER; break;
            case "double": parser = Parsers.DOUBLE; break;
            case "duration": parser = Parsers.durationMillis("ms"); break;
            case "size": parser = Parsers.BYTES; break;
            case "url": parser = Parsers.HTTP_URL; break;
            case "urls": parser = Parsers.HTTP_URL_LIST; break;
            case "list": parser = Parsers.LIST; break;
            case "atleast1s": parser = Parsers.durationAtLeast("s", 1000, false); break;
            case "offor1s": parser = Parsers.durationAtLeast("s", 1000, true); break;
            case "wildcards": parser = Parsers.WILDCARD_LIST; break;
            case "range": parser = Parsers.intRange(0, 10); break;
            case "rate": parser = Parsers.doubleRange(0, 1); break;
            case "enum": parser = Parsers.oneOf("a", "b"); break;
            default: throw new IllegalArgumentException(type);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parser.parse(raw));
        assertTrue(e.getMessage().contains(reason), "reason was: " + e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void boundedDurationsAcceptTheBoundAndZeroWhenItTurnsTheOptionOff() {
        assertEquals(1000L, Parsers.durationAtLeast("s", 1000, false).parse("1s"));
        assertEquals(1000L, Parsers.durationAtLeast("s", 1000, true).parse("1000ms"));
        assertEquals(0L, Parsers.durationAtLeast("s", 1000, true).parse("0"));
        assertEquals(30_000L, Parsers.durationAtLeast("s", 1000, true).parse("30"));
    }

    @org.junit.jupiter.api.Test
    void listsAreImmutableAndTrimmed() {
        assertEquals(Arrays.asList("a", "b c"), Parsers.LIST.parse(" a ,b c,"));
        assertEquals(Collections.emptyList(), Parsers.LIST.parse(" "));
        assertThrows(UnsupportedOperationException.class, () -> Parsers.LIST.parse("a").add("b"));
        assertThrows(IllegalArgumentException.class, () -> Parsers.durationMillis("days"));
        assertEquals("b", Parsers.oneOf("a", "b").parse(" B "));
    }
}
