package dev.apmagent.trace;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every case of the shared w3c_distributed_tracing.json (the W3C test data), as a request's headers would arrive. */
class W3cTraceContextVectorsTest {

    /** Reports a visible skip (or, on CI, a failure) when the shared vectors are absent. */
    @Test
    void sharedVectorsPresent() {
        assertTrue(SharedVectors.read("w3c_distributed_tracing.json").size() > 0);
    }

    static Stream<Arguments> vectors() {
        List<Arguments> cases = new ArrayList<>();
        JsonNode all = SharedVectors.read("w3c_distributed_tracing.json");
        for (JsonNode c : all) {
            cases.add(Arguments.of(c.get("headers").toString(), c));
        }
        assertTrue(cases.size() >= 80, "expected the full vector file, got " + cases.size());
        return cases.stream();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("vectors")
    void vector(String display, JsonNode c) {
        TraceParentHeader traceParent = new TraceParentHeader();
        TraceParentHeader legacy = new TraceParentHeader();
        TraceState traceState = new TraceState();
        traceParent.reset();
        legacy.reset();
        traceState.reset();
        int traceParentValues = 0;
        for (JsonNode header : c.get("headers")) {
            String name = header.get(0).asText();
            String value = header.get(1).asText();
            if (TraceParentHeader.isHeaderName(name, TraceParentHeader.TRACEPARENT)) {
                traceParentValues++;
                traceParent.add(value);
                // the older Elastic header has the same format and the same rules
                legacy.add(value);
            } else if (TraceParentHeader.isHeaderName(name, TraceParentHeader.TRACESTATE)) {
                traceState.add(value);
            }
        }
        boolean expectedTraceParent = c.get("is_traceparent_valid").asBoolean();
        assertEquals(expectedTraceParent, traceParentValues > 0 && traceParent.isValid(), "traceparent");
        assertEquals(expectedTraceParent, traceParentValues > 0 && legacy.isValid(), "elastic-apm-traceparent");
        JsonNode expectedTraceState = c.get("is_tracestate_valid");
        if (expectedTraceState != null) {
            assertEquals(expectedTraceState.asBoolean(), traceState.isValid(), "tracestate");
            if (traceState.isValid()) {
                // what we propagate is itself a valid tracestate with at most 32 members
                TraceState reparsed = new TraceState();
                String outgoing = traceState.toOutgoing(0.5);
                assertTrue(reparsed.add(outgoing), outgoing);
                assertEquals(0.5, reparsed.sampleRate());
                assertTrue(reparsed.memberCount() + 1 <= TraceState.MAX_MEMBERS, outgoing);
            }
        }
    }
}
