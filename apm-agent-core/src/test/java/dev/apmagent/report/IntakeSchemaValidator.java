package dev.apmagent.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validates intake v2 NDJSON against the APM Server's JSON schemas (draft-07) from {@code <apm.shared.dir>/spec/intake-v2/schema}.
 * Reusable by every module through core's test-jar:
 * <pre>
 * IntakeSchemaValidator v = IntakeSchemaValidator.fromSharedDir();   // skips (or fails when CI=true) without the schemas
 * v.assertValidNdjson(body);
 * </pre>
 * Each line must be one JSON object with exactly one key (metadata, transaction, span, error, metricset); its value is
 * validated against that type's schema. The default validator also rejects duplicate keys (the server's decoder would
 * silently keep one of them).
 */
public final class IntakeSchemaValidator {

    private static final String[] TYPES = {"metadata", "transaction", "span", "error", "metricset"};

    private final Map<String, JsonSchema> schemas = new HashMap<String, JsonSchema>();
    private final ObjectMapper mapper;

    private IntakeSchemaValidator(Path schemaDir, boolean rejectDuplicateKeys) throws IOException {
        ObjectMapper m = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        if (rejectDuplicateKeys) {
            m.enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        }
        this.mapper = m;
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7);
        for (String type : TYPES) {
            JsonNode node = mapper.readTree(Files.readAllBytes(schemaDir.resolve(type + ".json")));
            // the files carry relative $id values ("docs/spec/v2/span"); they are not needed to validate
            ((ObjectNode) node).remove("$id");
            schemas.put(type, factory.getSchema(node));
        }
    }

    /** The shared directory from system property apm.shared.dir; skips the test (fails when CI=true) when absent. */
    public static Path sharedDirOrSkip() {
        String dir = System.getProperty("apm.shared.dir");
        Path path = dir == null ? null : Paths.get(dir);
        boolean present = path != null && Files.isDirectory(path.resolve("spec/intake-v2/schema"));
        if (!present) {
            String message = "the shared spec directory (system property apm.shared.dir=" + dir
                    + ", expected spec/intake-v2/schema inside) is absent";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(message + "; CI=true requires it");
            }
            Assumptions.assumeTrue(false, message + "; skipping");
        }
        return path;
    }

    /**
     * A validator over the shared schemas that also rejects duplicate keys (for the agent's own output); skips or fails
     * like {@link #sharedDirOrSkip()}.
     */
    public static IntakeSchemaValidator fromSharedDir() {
        return create(true);
    }

    /** Like {@link #fromSharedDir()} but tolerating duplicate keys, as the server does (some of its samples have them). */
    public static IntakeSchemaValidator lenientFromSharedDir() {
        return create(false);
    }

    private static IntakeSchemaValidator create(boolean strict) {
        try {
            return new IntakeSchemaValidator(sharedDirOrSkip().resolve("spec/intake-v2/schema"), strict);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the intake schemas", e);
        }
    }

    /** Problems of one line; empty when valid. */
    public List<String> validateLine(String line) {
        JsonNode root;
        try {
            root = mapper.readTree(line);
        } catch (IOException e) {
            return Collections.singletonList("not valid JSON: " + e.getMessage());
        }
        if (root == null || !root.isObject() || root.size() != 1) {
            return Collections.singletonList("a line must be an object with exactly one key: " + abbreviate(line));
        }
        Iterator<Map.Entry<String, JsonNode>> it = root.fields();
        Map.Entry<String, JsonNode> entry = it.next();
        JsonSchema schema = schemas.get(entry.getKey());
        if (schema == null) {
            return Collections.singletonList("unknown event type '" + entry.getKey() + "'");
        }
        Set<ValidationMessage> messages = schema.validate(entry.getValue());
        List<String> out = new ArrayList<String>();
        for (ValidationMessage m : messages) {
            out.add(entry.getKey() + ": " + m.getMessage());
        }
        return out;
    }

    /** Problems of a whole NDJSON body (line numbers from 1); the first line must be metadata. */
    public List<String> validateNdjson(String body) {
        List<String> problems = new ArrayList<String>();
        String[] lines = body.split("\n", -1);
        int count = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isEmpty() && i == lines.length - 1) {
                continue;
            }
            count++;
            if (count == 1 && !line.startsWith("{\"metadata\"")) {
                problems.add("line 1: the first line must be metadata");
            }
            for (String p : validateLine(line)) {
                problems.add("line " + (i + 1) + ": " + p);
            }
        }
        if (count == 0) {
            problems.add("empty body");
        }
        return problems;
    }

    public void assertValidLine(String line) {
        List<String> problems = validateLine(line);
        Assertions.assertTrue(problems.isEmpty(), () -> "invalid intake line " + problems + ":\n" + abbreviate(line));
    }

    public void assertValidNdjson(String body) {
        List<String> problems = validateNdjson(body);
        Assertions.assertTrue(problems.isEmpty(), () -> "invalid intake NDJSON " + problems);
    }

    public void assertValidNdjson(byte[] body) {
        assertValidNdjson(new String(body, StandardCharsets.UTF_8));
    }

    private static String abbreviate(String s) {
        return s.length() <= 2000 ? s : s.substring(0, 2000) + "...";
    }
}
