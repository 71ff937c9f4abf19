package dev.apmagent.plugin.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.trace.SharedVectors;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Feeds random and mutated statements (fixed seed) to the signature parser: it never throws, its work is bounded by
 * a constant times the input length (counted in scanner steps, not time), and it names every non-blank input.
 */
class SqlSignatureFuzzTest {

    private static final int ITERATIONS = 120_000;
    /** Steps allowed per input character (plus a constant); the scanner's dollar-quote look-ahead is budgeted. */
    private static final int STEPS_PER_CHAR = 6;

    private static final String[] FRAGMENTS = {
        "'", "''", "\\'", "\"", "`", "[", "]", "(", ")", "$", "$$", "$a$", "$1", "--", "\n", "/*", "*/", "//",
        " ", ".", ",", "SELECT", "FROM", "INTO", "INSERT", "UPDATE", "DELETE", "CALL", "{", "}", "?", "=", "é", "选",
        "\uD83D\uDE00", "\uD800", "e+", "1.", "0x", "\u0000", "\t", "IGNORE", "AS",
    };

    @Test
    void neverThrowsNeverRunsAwayAlwaysNames() {
        List<String> seeds = new ArrayList<>();
        for (JsonNode c : SharedVectors.read("sql_signature_examples.json")) {
            seeds.add(c.get("input").asText());
        }
        for (JsonNode c : SharedVectors.read("sql_token_examples.json")) {
            seeds.add(c.get("input").asText());
        }
        Random random = new Random(0x5EED_5A1L);
        SqlSignature sig = new SqlSignature();
        StringBuilder out = new StringBuilder();
        SqlLexer lexer = new SqlLexer();
        for (int i = 0; i < ITERATIONS; i++) {
            String sql = generate(random, seeds, i);
            out.setLength(0);
            try {
                sig.appendTo(sql, out);
            } catch (Throwable t) {
                fail("threw on input #" + i + " " + quote(sql), t);
            }
            assertTokensAdvance(lexer, sql);
            long steps = sig.lastSteps();
            long bound = (long) STEPS_PER_CHAR * sql.length() + 16;
            if (steps > bound) {
                fail("runaway: " + steps + " steps for " + sql.length() + " chars on " + quote(sql));
            }
            boolean blank = isBlank(sql);
            if (blank) {
                assertEquals("", out.toString(), "blank input");
            } else {
                if (out.length() == 0) {
                    fail("empty name for non-blank input #" + i + " " + quote(sql));
                }
            }
            assertTrue(out.length() <= SqlSignature.MAX_NAME_LENGTH);
        }
    }

    @Test
    void pathologicalDollarQuotesStayLinear() {
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int i = 0; i < 20_000; i++) {
            sb.append("$t").append(i).append("$ ");
        }
        SqlSignature sig = new SqlSignature();
        sig.appendTo(sb, new StringBuilder());
        assertTrue(sig.lastSteps() <= (long) STEPS_PER_CHAR * sb.length(), "steps " + sig.lastSteps());

        StringBuilder nested = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            nested.append("/*");
        }
        sig.appendTo(nested, new StringBuilder());
        assertTrue(sig.lastSteps() <= (long) STEPS_PER_CHAR * nested.length(), "steps " + sig.lastSteps());
    }

    /** Every token consumes input, so a scan ends within length + 1 tokens (a stuck scanner fails, not hangs). */
    private static void assertTokensAdvance(SqlLexer lexer, String sql) {
        lexer.reset(sql);
        int tokens = 0;
        int lastEnd = 0;
        for (SqlLexer.Kind k = lexer.next(); k != SqlLexer.Kind.EOF; k = lexer.next()) {
            if (++tokens > sql.length() + 1) {
                fail("scanner does not advance on " + quote(sql));
            }
            assertTrue(lexer.start() >= lastEnd - 1 && lexer.end() <= sql.length(), () -> "token range on " + quote(sql));
            lastEnd = lexer.end();
        }
    }

    private static boolean isBlank(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!SqlLexer.isSpace(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static String generate(Random r, List<String> seeds, int i) {
        switch (i % 6) {
            case 0: { // random bytes as chars
                int n = r.nextInt(40);
                StringBuilder sb = new StringBuilder(n);
                for (int j = 0; j < n; j++) {
                    sb.append((char) r.nextInt(r.nextBoolean() ? 128 : 0x10000));
                }
                return sb.toString();
            }
            case 1: { // truncation of a vector
                String s = seeds.get(r.nextInt(seeds.size()));
                return s.substring(0, s.isEmpty() ? 0 : r.nextInt(s.length() + 1));
            }
            case 2: // fragments inserted into a vector
                return insertFragments(r, seeds.get(r.nextInt(seeds.size())), 1 + r.nextInt(4));
            case 3: { // random fragment soup
                StringBuilder sb = new StringBuilder();
                int n = r.nextInt(30);
                for (int j = 0; j < n; j++) {
                    sb.append(FRAGMENTS[r.nextInt(FRAGMENTS.length)]);
                }
                return sb.toString();
            }
            case 4: { // characters replaced by random bytes
                char[] cs = seeds.get(r.nextInt(seeds.size())).toCharArray();
                for (int j = 0; j < cs.length; j++) {
                    if (r.nextInt(8) == 0) {
                        cs[j] = (char) r.nextInt(256);
                    }
                }
                return new String(cs);
            }
            default: { // long inputs: repeated vectors and unbalanced openers
                StringBuilder sb = new StringBuilder();
                int n = 1 + r.nextInt(i % 600 == 5 ? 400 : 20);
                for (int j = 0; j < n; j++) {
                    sb.append(seeds.get(r.nextInt(seeds.size()))).append(FRAGMENTS[r.nextInt(FRAGMENTS.length)]);
                }
                return sb.toString();
            }
        }
    }

    private static String insertFragments(Random r, String s, int count) {
        StringBuilder sb = new StringBuilder(s);
        for (int k = 0; k < count; k++) {
            sb.insert(r.nextInt(sb.length() + 1), FRAGMENTS[r.nextInt(FRAGMENTS.length)]);
        }
        return sb.toString();
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length() && i < 200; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append(s.length() > 200 ? "...\"" : "\"").toString();
    }
}
