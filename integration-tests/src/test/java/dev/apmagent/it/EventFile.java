package dev.apmagent.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.apmagent.report.IntakeSchemaValidator;
import dev.apmagent.report.SpanTypeRules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The events an agent wrote to its {@code output_file}, every line validated against the intake v2 schemas and every
 * span's type and subtype against the cross-agent span types (an invalid event fails the test; without ../shared the
 * validation skips outside CI and fails in CI).
 */
public final class EventFile {

    private static final ObjectMapper json = new ObjectMapper();

    private final List<JsonNode> lines = new ArrayList<>();

    private EventFile() {
    }

    public static EventFile readAndValidate(Path file) throws IOException {
        assertThat(file).as("the agent's output_file").exists();
        String body = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        IntakeSchemaValidator.fromSharedDir().assertValidNdjson(body);
        EventFile events = new EventFile();
        for (String line : body.split("\n")) {
            if (!line.trim().isEmpty()) {
                events.lines.add(json.readTree(line));
            }
        }
        assertThat(SpanTypeRules.fromSharedDir().violations(events.all("span"))).as("span types per span_types.json").isEmpty();
        return events;
    }

    /** The objects of every line of the given type ({@code transaction}, {@code span}, ...). */
    public List<JsonNode> all(String type) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode line : lines) {
            if (line.has(type)) {
                out.add(line.get(type));
            }
        }
        return out;
    }

    /** The transactions with this name. */
    public List<JsonNode> transactions(String name) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode t : all("transaction")) {
            if (name.equals(t.path("name").asText())) {
                out.add(t);
            }
        }
        return out;
    }

    /** The spans whose parent is the given event id. */
    public List<JsonNode> childrenOf(String id) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode s : all("span")) {
            if (id.equals(s.path("parent_id").asText())) {
                out.add(s);
            }
        }
        return out;
    }
}
