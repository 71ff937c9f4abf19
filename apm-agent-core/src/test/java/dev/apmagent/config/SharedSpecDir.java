package dev.apmagent.config;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Locates a file of the shared specification directory (system property apm.shared.dir). */
final class SharedSpecDir {

    private SharedSpecDir() {
    }

    /**
     * The file, or aborts the test (skipped) when the directory is absent; fails instead when the environment
     * variable CI is "true".
     */
    static Path require(String relative) {
        String dir = System.getProperty("apm.shared.dir");
        Path file = dir == null ? null : Paths.get(dir).resolve(relative);
        if (file == null || !Files.isRegularFile(file)) {
            String message = "shared spec file " + relative + " not found (apm.shared.dir=" + dir + ")";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(message + "; CI=true requires it");
            }
            Assumptions.abort(message + "; skipping");
        }
        return file;
    }
}
