package dev.apmagent.trace;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Reads the shared cross-agent vectors; skips when they are absent, except on CI where absence fails. */
public final class SharedVectors {

    private SharedVectors() {
    }

    public static JsonNode read(String name) {
        String dir = System.getProperty("apm.shared.dir");
        Path file = dir == null ? null : Paths.get(dir, "spec", "cross-agent", name);
        if (file == null || !Files.isRegularFile(file)) {
            String msg = "shared vectors not found: " + (file == null ? "system property apm.shared.dir unset" : file);
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(msg);
            }
            Assumptions.abort(msg + " (skipping)");
        }
        try {
            ObjectMapper mapper = new ObjectMapper();
            mapper.enable(JsonParser.Feature.ALLOW_COMMENTS);
            return mapper.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
