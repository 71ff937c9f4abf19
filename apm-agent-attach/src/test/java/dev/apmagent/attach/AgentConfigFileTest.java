package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class AgentConfigFileTest {

    @Test
    void writesAnOwnerOnlyPropertiesFileThatLoadsBackExactly() throws Exception {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("service_name", "orders");
        config.put("server_urls", "http://a:8200,http://b:8200");
        config.put("secret_token", "s3cr=t:#!\\x");
        config.put("global_labels", "team=ä,région=ouest");
        config.put("empty", "");
        Path file = AgentConfigFile.write(config, "test");
        try {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(file.toString()).doesNotContain(",");
            assertThat(AgentConfigFile.agentArgument(file.toString())).isEqualTo("config_file=" + file);
            Properties loaded = new Properties();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                loaded.load(reader);
            }
            assertThat(loaded).containsExactlyInAnyOrderEntriesOf(config);
            assertThat(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)).startsWith("#test");
        } finally {
            AgentConfigFile.delete(file);
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void argsFileIsReadAsUtf8PropertiesAndCommandLineOverridesIt(@TempDir Path dir) throws Exception {
        Path argsFile = dir.resolve("agent.properties");
        Files.write(argsFile, ("# options\nservice_name = from-file\n  environment=prod  \nlog_level: debug\nlabel=é\n")
                .getBytes(StandardCharsets.UTF_8));
        Map<String, String> fromFile = AgentConfigFile.read(argsFile);
        assertThat(fromFile).containsOnly(entry("service_name", "from-file"), entry("environment", "prod"),
                entry("log_level", "debug"), entry("label", "é"));
        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put("service_name", "from-flag");
        assertThat(AgentConfigFile.merge(fromFile, overrides)).containsEntry("service_name", "from-flag")
                .containsEntry("environment", "prod").hasSize(4);
    }
}
