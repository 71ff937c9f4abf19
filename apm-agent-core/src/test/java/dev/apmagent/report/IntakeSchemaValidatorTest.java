package dev.apmagent.report;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The validator must accept the server's own valid samples and reject its invalid ones, so it cannot pass silently. */
class IntakeSchemaValidatorTest {

    private final IntakeSchemaValidator validator = IntakeSchemaValidator.fromSharedDir();
    private final Path samples = IntakeSchemaValidator.sharedDirOrSkip().resolve("spec/intake-v2/samples");

    @Test
    void rejectsTheServersInvalidEventSample() throws Exception {
        List<String> problems = validator.validateNdjson(read("invalid-event.ndjson"));
        assertFalse(problems.isEmpty(), "invalid-event.ndjson must not validate");
        // the transaction id is a number there, not a string
        assertTrue(problems.toString().contains("line 2"), problems.toString());
    }

    @Test
    void rejectsInvalidMetadataAndJson() throws Exception {
        assertFalse(validator.validateNdjson(read("invalid-metadata.ndjson")).isEmpty());
        assertFalse(validator.validateNdjson(read("invalid-json-event.ndjson")).isEmpty());
        assertFalse(validator.validateLine("{\"span\":{}}").isEmpty());
        assertFalse(validator.validateLine("{\"transaction\":{},\"span\":{}}").isEmpty());
        assertFalse(validator.validateLine("{\"bogus\":{}}").isEmpty());
    }

    @Test
    void acceptsTheServersValidSamples() throws Exception {
        IntakeSchemaValidator lenient = IntakeSchemaValidator.lenientFromSharedDir();
        for (String name : new String[] {"events.ndjson", "spans.ndjson", "transactions.ndjson", "errors.ndjson", "minimal.ndjson"}) {
            List<String> problems = lenient.validateNdjson(read(name));
            assertTrue(problems.isEmpty(), name + ": " + problems);
        }
    }

    @Test
    void strictModeRejectsDuplicateKeys() {
        assertFalse(validator.validateLine("{\"metricset\":{\"samples\":{},\"samples\":{}}}").isEmpty());
        assertTrue(IntakeSchemaValidator.lenientFromSharedDir().validateLine("{\"metricset\":{\"samples\":{},\"samples\":{}}}").isEmpty());
    }

    @Test
    void acceptsTheElasticJavaAgentsCapturedPayload() throws Exception {
        Path captured = samples.resolveSibling("samples-captured").resolve("elastic-java-agent-1.52.0.ndjson");
        validator.assertValidNdjson(new String(Files.readAllBytes(captured), StandardCharsets.UTF_8));
    }

    private String read(String name) throws Exception {
        return new String(Files.readAllBytes(samples.resolve(name)), StandardCharsets.UTF_8);
    }
}
