package dev.apmagent.plugin.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.trace.SharedVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlLexerTest {

    /** Reports a visible skip (or, on CI, a failure) when the shared vectors are absent. */
    @Test
    void sharedVectorsPresent() {
        assertTrue(SharedVectors.read("sql_token_examples.json").size() > 0);
    }

    static Stream<Arguments> tokenVectors() {
        List<Arguments> cases = new ArrayList<>();
        for (JsonNode c : SharedVectors.read("sql_token_examples.json")) {
            List<String> expected = new ArrayList<>();
            JsonNode tokens = c.get("tokens");
            if (tokens != null) {
                for (JsonNode t : tokens) {
                    expected.add(t.get("kind").asText() + ":" + t.get("text").asText());
                }
            }
            cases.add(Arguments.of(c.get("name").asText(), c.get("input").asText(), expected));
        }
        assertTrue(cases.size() >= 10, "expected the full vector file, got " + cases.size());
        return cases.stream();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("tokenVectors")
    void tokensMatchSharedVectors(String name, String input, List<String> expected) {
        SqlLexer lx = new SqlLexer().reset(input);
        List<String> actual = new ArrayList<>();
        for (SqlLexer.Kind k = lx.next(); k != SqlLexer.Kind.EOF; k = lx.next()) {
            actual.add(k.name() + ":" + lx.text());
        }
        assertEquals(expected, actual, name);
    }
}
