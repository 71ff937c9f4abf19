package dev.apmagent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Runs the serializer benchmark's method without JMH and checks it wrote one valid NDJSON line of the right type. */
class SerializerBenchmarkTest {

    @ParameterizedTest
    @CsvSource({
            "transaction, /transaction/name,           GET /api/orders/{id}",
            "span,        /span/context/db/statement,  'SELECT o.id, o.total, o.status FROM orders o WHERE o.customer_id = ? AND o.id = ?'",
            "error,       /error/exception/message,    order 42 has no items",
    })
    void serializeWritesOneLineOfTheEventType(String eventType, String pointer, String expected) throws Exception {
        SerializerBenchmark b = new SerializerBenchmark();
        b.eventType = eventType;
        b.setUp();
        int size = b.serialize();
        assertEquals(size, b.serialize(), "the helper is reset before each call");
        String line = new String(b.json.buffer(), 0, size, StandardCharsets.UTF_8);
        assertTrue(line.endsWith("\n") && line.indexOf('\n') == line.length() - 1, "one NDJSON line: " + line);
        JsonNode root = new ObjectMapper().readTree(line);
        assertEquals(1, root.size());
        assertTrue(root.has(eventType), line);
        assertEquals(expected, root.at(pointer).asText(), line);
    }

    @Test
    void unknownEventTypeIsRejected() {
        SerializerBenchmark b = new SerializerBenchmark();
        b.eventType = "metricset";
        assertThrows(IllegalArgumentException.class, b::setUp);
    }
}
