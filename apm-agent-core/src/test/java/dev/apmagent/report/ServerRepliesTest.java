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

    /** 4xx: the server's verdict on the events; anything else that is not 2xx: they could not be delivered. */
    @ParameterizedTest(name = "HTTP {0}: {1}")
    @CsvSource({
        "400, SERVER_REJECTED", "401, SERVER_REJECTED", "403, SERVER_REJECTED", "404, SERVER_REJECTED",
        "413, SERVER_REJECTED", "429, SERVER_REJECTED", "499, SERVER_REJECTED",
        "500, SEND_FAILED", "502, SEND_FAILED", "503, SEND_FAILED", "504, SEND_FAILED", "302, SEND_FAILED",
        "-1, SEND_FAILED"})
    void errorRepliesDropForTheRightReason(int status, DropReason expected) {
        assertEquals(expected, ServerReplies.dropReason(status));
    }

    @ParameterizedTest(name = "[{index}] HTTP {0} {1} ''{2}'' truncated={3}: garbage={4}")
    @CsvSource(delimiter = '|', value = {
        "503 | application/json | '{\"accepted\":0,\"errors\":[{\"message\":\"queue is full\"}]}' | false | false",
        "503 | application/json | '{\"error\":\"the server is unavailable\"}'                         | false | false",
        "401 | application/json | ' {\"error\":\"authentication failed\"} '                           | false | false",
        "502 | text/html        | <html><body>Bad Gateway</body></html>                                 | false | false",
        "404 | text/plain       | 404 page not found                                                    | false | false",
        "500 |                  | ''                                                                    | false | false",
        "400 | application/json | '\u0000<html>not json at all {{{'                                    | false | true",
        "500 | application/json | '{\"accepted\":0,'                                                  | false | true",
        "500 | text/html        | <html>                                                                | true  | true",
        "-1  |                  | SOMETHING ELSE ENTIRELY                                               | false | true",
        "-1  |                  | ''                                                                    | false | true"})
    void onlyRepliesTheAgentCannotReadAreGarbage(int status, String contentType, String body, boolean truncated, boolean garbage) {
        assertEquals(garbage, ServerReplies.isGarbage(status, contentType, body, truncated));
    }
}
