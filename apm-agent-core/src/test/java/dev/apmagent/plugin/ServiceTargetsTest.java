package dev.apmagent.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.trace.SharedVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServiceTargetsTest {

    /** Reports a visible skip (or, on CI, a failure) when the shared vectors are absent. */
    @Test
    void sharedVectorsPresent() {
        assertTrue(SharedVectors.read("service_resource_inference.json").size() > 0);
    }

    static Stream<Arguments> vectors() {
        List<Arguments> cases = new ArrayList<>();
        for (JsonNode c : SharedVectors.read("service_resource_inference.json")) {
            cases.add(Arguments.of(c.get("failure_message").asText(), c));
        }
        assertTrue(cases.size() >= 15, "expected the full vector file, got " + cases.size());
        return cases.stream();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("vectors")
    void sharedVector(String message, JsonNode c) {
        JsonNode span = c.get("span");
        JsonNode context = span.path("context");
        int kind = ServiceTargets.CONTEXT_NONE;
        String contextName = null;
        if (context.has("db")) {
            kind = ServiceTargets.CONTEXT_DB;
            contextName = text(context.path("db").get("instance"));
        } else if (context.has("message")) {
            kind = ServiceTargets.CONTEXT_MESSAGE;
            contextName = text(context.path("message").path("queue").get("name"));
        } else if (context.has("http")) {
            kind = ServiceTargets.CONTEXT_HTTP;
            StringBuilder hostPort = new StringBuilder();
            if (ServiceTargets.appendHostPort(context.path("http").get("url").asText(), hostPort)) {
                contextName = hostPort.toString();
            }
        }
        JsonNode target = context.path("service").path("target");
        InferredTarget out = new InferredTarget();
        ServiceTargets.infer("true".equals(span.get("exit").asText()), text(span.get("type")), text(span.get("subtype")),
            text(target.get("type")), text(target.get("name")), kind, contextName, out);

        JsonNode expectedTarget = c.get("expected_service_target");
        if (expectedTarget == null || expectedTarget.isNull()) {
            assertFalse(out.isPresent(), message);
            assertTrue(c.get("expected_resource").isNull(), message);
            return;
        }
        assertTrue(out.isPresent(), message);
        assertEquals(c.get("expected_resource").asText(), out.resource().toString(), message);
        assertEquals(expectedTarget.get("type").asText(), out.type(), message);
        JsonNode name = expectedTarget.get("name");
        assertEquals(name == null ? null : name.asText(), out.hasName() ? out.name().toString() : null, message);
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http://my-cluster.com:9200/path?q=1   | my-cluster.com:9200",
        "https://user:pw@example.com/x         | example.com:443",
        "HTTP://Example.com                    | Example.com:80",
        "http://[::1]:8080/                    | [::1]:8080",
        "https://[2001:db8::1]                 | [2001:db8::1]:443",
        "ftp://example.com                     | ",
        "http://:80                            | ",
        "http://host:99999                     | ",
        "http://host:8a                        | ",
        "no-scheme.example.com                 | ",
    })
    void hostPortFromUrl(String url, String expected) {
        StringBuilder sb = new StringBuilder();
        boolean ok = ServiceTargets.appendHostPort(url, sb);
        assertEquals(expected != null, ok);
        assertEquals(expected == null ? "" : expected, sb.toString());
    }

    @Test
    void dbShorthandAndReuse() {
        InferredTarget out = new InferredTarget();
        assertTrue(ServiceTargets.inferDb("postgresql", "orders", out));
        assertEquals("postgresql/orders", out.resource().toString());
        assertTrue(ServiceTargets.inferDb("h2", null, out));
        assertEquals("h2", out.resource().toString());
        assertFalse(out.hasName());
        assertTrue(ServiceTargets.infer(true, "db", "mysql", null, "explicit", ServiceTargets.CONTEXT_DB, "ignored", out));
        assertEquals("mysql/explicit", out.resource().toString());
        assertFalse(ServiceTargets.infer(true, null, null, null, null, ServiceTargets.CONTEXT_NONE, null, out));
        assertNull(out.type());
    }
}
