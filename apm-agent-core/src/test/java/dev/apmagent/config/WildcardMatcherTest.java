package dev.apmagent.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WildcardMatcherTest {

    /** Makes a missing shared directory visible as a skipped test (Surefire does not count an aborted factory). */
    @Test
    void crossAgentVectorFileIsPresent() {
        assertTrue(SharedSpecDir.require("spec/cross-agent/wildcard_matcher_tests.json").toFile().length() > 0);
    }

    /** Every case of the cross-agent vectors: {group: {pattern: {text: expected}}}. */
    @TestFactory
    List<DynamicTest> crossAgentVectors() throws Exception {
        Path file = SharedSpecDir.require("spec/cross-agent/wildcard_matcher_tests.json");
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        List<DynamicTest> tests = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> groups = root.fields(); groups.hasNext(); ) {
            Map.Entry<String, JsonNode> group = groups.next();
            for (Iterator<Map.Entry<String, JsonNode>> patterns = group.getValue().fields(); patterns.hasNext(); ) {
                Map.Entry<String, JsonNode> pattern = patterns.next();
                WildcardMatcher matcher = WildcardMatcher.valueOf(pattern.getKey());
                for (Iterator<Map.Entry<String, JsonNode>> cases = pattern.getValue().fields(); cases.hasNext(); ) {
                    Map.Entry<String, JsonNode> c = cases.next();
                    boolean expected = c.getValue().asBoolean();
                    String text = c.getKey();
                    tests.add(DynamicTest.dynamicTest(group.getKey() + ": '" + pattern.getKey() + "' ~ '" + text + "' is " + expected,
                            () -> assertEquals(expected, matcher.matches(text))));
                }
            }
        }
        assertTrue(tests.size() > 80, "expected the full vector file, found " + tests.size() + " cases");
        return tests;
    }

    @ParameterizedTest(name = "''{0}'' ~ ''{1}'' is {2}")
    @CsvSource(delimiter = '|', value = {
            "*           | ''              | true",
            "*           | anything        | true",
            "''          | ''              | true",
            "''          | x               | false",
            "(?-i)       | ''              | true",
            "(?i)FOO     | foo             | true",
            "(?-i)FOO    | foo             | false",
            "(?-i)FOO    | FOO             | true",
            "(?-i)*Foo   | barFoo          | true",
            "(?-i)*Foo   | barfoo          | false",
            "(?-i)Foo*   | Foobar          | true",
            "(?-i)Foo*   | fOobar          | false",
            "(?-i)a*b*c  | aXbYc           | true",
            "(?-i)a*b*c  | aXBYc           | false",
            "/foo/*/baz  | /foo//baz       | true",
            "/foo/*/baz  | /foo/baz        | false",
            "a*a         | a               | false",
            "a*a         | aa              | true",
            "a*a         | aba             | true",
            "*a*a*       | a               | false",
            "*.js        | /static/app.JS  | true",
            "/heartbeat* | /HEARTBEAT/ping | true",
            "ÄÖ*         | äöü             | true",
            "fo?         | fox             | false",
            "foo\\*      | foo\\bar        | true",
            "(?i)        | x               | false",
    })
    void matchesTable(String pattern, String text, boolean expected) {
        assertEquals(expected, WildcardMatcher.valueOf(pattern).matches(text));
    }

    @Test
    void nullTextNeverMatches() {
        assertFalse(WildcardMatcher.valueOf("*").matches(null));
        assertFalse(WildcardMatcherList.of("*").matches(null));
    }

    @Test
    void caseFlagIsReported() {
        assertTrue(WildcardMatcher.valueOf("(?-i)x").isCaseSensitive());
        assertFalse(WildcardMatcher.valueOf("(?i)x").isCaseSensitive());
        assertFalse(WildcardMatcher.valueOf("x").isCaseSensitive());
        assertEquals("(?-i)x*", WildcardMatcher.valueOf("(?-i)x*").toString());
    }

    @Test
    void listMatchesAnyAndReportsFirstMatch() {
        WildcardMatcherList list = Parsers.WILDCARD_LIST.parse(" /health* , ,*.css,(?-i)/ADMIN/*");
        assertEquals(3, list.size());
        assertEquals("/health*, *.css, (?-i)/ADMIN/*", list.toString());
        assertTrue(list.matches("/HEALTH/live"));
        assertTrue(list.matches("/a/b.CSS"));
        assertTrue(list.matches("/ADMIN/x"));
        assertFalse(list.matches("/admin/x"));
        assertSame(list.get(1), list.firstMatch("/x.css"));
        assertNull(list.firstMatch("/index.html"));
        assertFalse(WildcardMatcherList.EMPTY.matches(""));
        assertSame(WildcardMatcherList.EMPTY, Parsers.WILDCARD_LIST.parse("  "));
        // commas and nothing else are a slip, not an empty list: the loader warns and keeps the default
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Parsers.WILDCARD_LIST.parse(" , "));
        assertEquals(list, Parsers.WILDCARD_LIST.parse("/health*,*.css,(?-i)/ADMIN/*"));
    }

    /** matches runs on request threads: no allocation at all, after warm-up, whatever the outcome. */
    @Test
    void matchingAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        WildcardMatcherList list = Parsers.WILDCARD_LIST.parse("/static/*, *.js, *foo*bar*, (?-i)/Admin/*, /exact");
        StringBuilder[] inputs = {
                new StringBuilder("/static/app.css"), new StringBuilder("/api/orders/42"), new StringBuilder("/x/FOO/y/BAR/z"),
                new StringBuilder("/admin/panel"), new StringBuilder("/EXACT"),
        };
        int matched = 0;
        for (int i = 0; i < 20_000; i++) {
            matched += list.matches(inputs[i % inputs.length]) ? 1 : 0;
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            matched += list.matches(inputs[i % inputs.length]) ? 1 : 0;
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(120_000 / 5 * 3, matched, "3 of the 5 inputs match");
        assertTrue(allocated < 1_000, "matching allocated " + allocated + " bytes over 100000 calls");
    }
}
