package dev.apmagent.report;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ServerRepliesTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "{\"accepted\":3,\"errors\":[{\"message\":\"bad\"}]}|3",
        "  { \"errors\": [], \"accepted\" : 12 }|12",
        "{\"accepted\":0}|0",
        "<html><body>502 Bad Gateway</body></html>|-1",
        "|-1",
        "{\"accepted\":}|-1",
        "{\"accepted\":\"3\"}|-1",
        "{\"accepted\"|-1",
        "not json at all \"accepted\":5|-1",
        "{\"accepted\":99999999999999999999999}|999999999999999999"})
    void readsTheAcceptedCountOrMinusOne(String body, long expected) {
        assertEquals(expected, ServerReplies.acceptedCount(body));
    }
}
