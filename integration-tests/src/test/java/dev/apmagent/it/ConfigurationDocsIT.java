package dev.apmagent.it;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md lists exactly the options of the shipped jar: the check runs against the agent jar, where
 * every plugin's options are registered (core's own test sees only core's).
 */
class ConfigurationDocsIT {

    @Test
    void documentationMatchesEveryOptionOfTheAgentJar() throws Exception {
        Path doc = Paths.get(System.getProperty("user.dir")).resolve("../docs/configuration.md").normalize();
        Process process = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", TestPaths.agentJar().toString(), "dev.apmagent.tools.ConfigurationDocs", "--check", doc.toString())
                .redirectErrorStream(true).start();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (InputStream in = process.getInputStream()) {
            in.transferTo(output);
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output.toString(StandardCharsets.UTF_8)).isZero();
    }
}
