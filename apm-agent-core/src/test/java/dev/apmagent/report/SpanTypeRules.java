package dev.apmagent.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The span type/subtype pairs every Elastic agent may emit, from the shared cross-agent vectors
 * ({@code spec/cross-agent/span_types.json}): an unknown type, a subtype not listed for its type (unless the type
 * allows unlisted ones), or a missing subtype where the type requires one, is a violation. Skips or fails (CI=true)
 * like {@link IntakeSchemaValidator#sharedDirOrSkip()} when the shared directory is absent.
 */
public final class SpanTypeRules {

    private final JsonNode types;

    private SpanTypeRules(JsonNode types) {
        this.types = types;
    }

    public static SpanTypeRules fromSharedDir() {
        try {
            byte[] json = Files.readAllBytes(IntakeSchemaValidator.sharedDirOrSkip().resolve("spec/cross-agent/span_types.json"));
            return new SpanTypeRules(new ObjectMapper().readTree(json));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read span_types.json", e);
        }
    }

    /** Why this type/subtype pair is not allowed, or null when it is. */
    public String violation(String type, String subtype) {
        JsonNode entry = type == null || type.startsWith("__") ? null : types.get(type);
        if (entry == null) {
            return "unknown span type '" + type + "'";
        }
        if (subtype == null || subtype.isEmpty()) {
            return entry.path("allow_null_subtype").asBoolean(false) || !entry.has("subtypes")
                    ? null : "span type '" + type + "' requires a subtype";
        }
        if (entry.path("allow_unlisted_subtype").asBoolean(false)) {
            return null;
        }
        JsonNode subtypes = entry.get("subtypes");
        return subtypes != null && subtypes.has(subtype) ? null : "subtype '" + subtype + "' is not listed for span type '" + type + "'";
    }

    /** The violations among the {@code span} objects of intake lines. */
    public List<String> violations(List<JsonNode> spans) {
        List<String> out = new ArrayList<>();
        for (JsonNode span : spans) {
            String subtype = span.hasNonNull("subtype") ? span.get("subtype").asText() : null;
            String v = violation(span.path("type").asText(null), subtype);
            if (v != null) {
                out.add(span.path("name").asText() + ": " + v);
            }
        }
        return out;
    }

    /** Every listed subtype of {@code type} (for tests that enumerate what a plugin can produce). */
    public List<String> subtypesOf(String type) {
        List<String> out = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = types.path(type).path("subtypes").fields();
        while (it.hasNext()) {
            out.add(it.next().getKey());
        }
        return out;
    }
}
