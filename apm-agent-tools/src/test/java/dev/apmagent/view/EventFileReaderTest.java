package dev.apmagent.view;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventFileReaderTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "not json                                 | not a JSON object",
            "[1]                                      | not a JSON object",
            "{}                                       | empty object",
            "{\"span\": 5}                            | \"span\" is not an object",
            "{\"span\": {\"id\": \"a\"}, \"error\": {}} | more than one event in one line",
            "{\"span\": {\"id\": \"a\"}} trailing       | text after the JSON object",
            "{\"span\": {\"id\": \"a\"                | Unexpected end of JSON input",
            "{\"span\" {}}                            | Expecting ':'",
            "{\"span\": {\"id\": \"a\" \"name\": 1}}  | Expecting ',' or '}'",
    })
    void malformedLinesAreCountedWithTheFirstReason(String line, String reason) throws IOException {
        EventLog log = read("{\"metadata\":{}}\n" + line + "\n" + line + "\n");
        assertEquals(2, log.malformedLines);
        assertTrue(log.firstMalformed.startsWith("line 2: " + reason), log.firstMalformed);
        assertEquals(0, log.spans);
    }

    @Test
    void keepsOnlyThePrintedFieldsOfEachEvent() throws IOException {
        EventLog log = read("{\"span\":{\"stacktrace\":[{\"filename\":\"A.java\",\"vars\":{\"name\":\"not me\"}}],"
                + "\"name\":\"SELECT\",\"context\":{\"db\":{\"type\":\"sql\"}},\"type\":\"db\",\"subtype\":\"mysql\","
                + "\"action\":\"query\",\"id\":\"s1\",\"parent_id\":\"t1\",\"trace_id\":\"tr\",\"transaction_id\":\"t1\","
                + "\"timestamp\":1767225600000000,\"duration\":1.25,\"outcome\":\"failure\",\"sample_rate\":1.0}}\n"
                + "{\"error\":{\"id\":\"e1\",\"exception\":{\"stacktrace\":[{\"function\":\"f\"}],\"message\":\"boom\","
                + "\"type\":\"java.io.IOException\",\"cause\":[{\"message\":\"inner\"}]},\"transaction\":"
                + "{\"sampled\":true,\"name\":\"GET /\"},\"culprit\":\"A.f\"}}\n");
        Event span = log.events.get(0);
        assertEquals("SELECT", span.name);
        assertEquals("db/mysql/query", span.typeLabel());
        assertEquals("s1", span.id);
        assertEquals("t1", span.parentId);
        assertEquals("tr", span.traceId);
        assertEquals(1767225600000000L, span.timestampMicros);
        assertEquals(1.25, span.durationMillis, 0.0);
        assertEquals("failure", span.outcome);
        Event error = log.events.get(1);
        assertEquals("java.io.IOException: boom", error.name);
        assertEquals("GET /", error.transactionName);
        assertNull(error.traceId);
        assertEquals(Event.UNKNOWN_TIME, error.timestampMicros);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"exception\":{\"type\":\"E\",\"message\":\"m\"},\"log\":{\"message\":\"l\"},\"culprit\":\"c\"} | E: m",
            "{\"exception\":{\"message\":\"m\"},\"culprit\":\"c\"}                                           | m",
            "{\"exception\":{\"type\":\"E\"}}                                                                | E",
            "{\"log\":{\"message\":\"l\"},\"culprit\":\"c\"}                                                 | l",
            "{\"culprit\":\"c\"}                                                                             | c",
            "{\"exception\":{\"message\":\"two\\nlines\"}}                                                   | two lines",
    })
    void errorTextPrefersTheException(String error, String text) throws IOException {
        assertEquals(text, read("{\"error\":" + error + "}").events.get(0).name);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "\"duration\":-1     ",
            "\"duration\":\"12\" ",
            "\"duration\":null   ",
            "\"duration\":1e400  ",
    })
    void unusableDurationsAreUnknown(String field) throws IOException {
        Event event = read("{\"transaction\":{\"id\":\"a\"," + field + "}}").events.get(0);
        assertTrue(Double.isNaN(event.durationMillis), field);
    }

    @Test
    void aLineLongerThanTheLimitIsSkippedWithoutStoppingTheRest() throws IOException {
        String longLine = "{\"span\":{\"name\":\"" + "x".repeat(5000) + "\"}}";
        EventLog log = EventFileReader.read(new ByteArrayInputStream(("{\"metadata\":{}}\n" + longLine
                + "\n{\"span\":{\"name\":\"short\"}}\n").getBytes(StandardCharsets.UTF_8)), 1000);
        assertEquals(1, log.malformedLines);
        assertEquals("line 2: longer than 1000 bytes", log.firstMalformed);
        assertEquals(1, log.spans);
        assertEquals("short", log.events.get(0).name);
        assertEquals(3, log.lines);
    }

    @Test
    void linesAreSplitAcrossReadChunksAndCrLfAndByteOrderMarkAreTolerated() throws IOException {
        StringBuilder sb = new StringBuilder("\uFEFF{\"metadata\":{}}\r\n");
        for (int i = 0; i < 2000; i++) {
            sb.append("{\"span\":{\"name\":\"s").append(i).append("\",\"context\":{\"pad\":\"")
                    .append("p".repeat(i % 300)).append("\"}}}\r\n");
        }
        sb.append("{\"span\":{\"name\":\"last, no newline\"}}");
        EventLog log = read(sb.toString());
        assertEquals(0, log.malformedLines, log.firstMalformed);
        assertEquals(1, log.metadataLines);
        assertEquals(2001, log.spans);
        assertEquals("s1999", log.events.get(1999).name);
        assertEquals("last, no newline", log.events.get(2000).name);
    }

    private static EventLog read(String text) throws IOException {
        return EventFileReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }
}
