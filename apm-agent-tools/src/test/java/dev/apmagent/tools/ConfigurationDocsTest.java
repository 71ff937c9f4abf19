package dev.apmagent.tools;

import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.config.OptionRegistry;
import dev.apmagent.config.TestOptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * docs/configuration.md must equal what {@link ConfigurationDocs} generates from the registered options. Tables of
 * providers that are not on this module's class path (plugins) are checked where they are visible: ConfigurationDocsIT
 * runs the check on the agent jar, which holds them all.
 */
class ConfigurationDocsTest {

    private static final ClassLoader LOADER = ConfigurationDocsTest.class.getClassLoader();

    @Test
    void documentMatchesTheRegistry() throws IOException {
        Path doc = projectRoot().resolve("docs/configuration.md");
        if (!Files.isRegularFile(doc)) {
            fail(doc + " is missing. Regenerate it from the repository root with:\n  " + ConfigurationDocs.REGENERATE_COMMAND);
        }
        String actual = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8).replace("\r\n", "\n");
        String expected = ConfigurationDocs.render(OptionRegistry.load(LOADER), actual, LOADER);
        List<String> differences = ConfigurationDocs.differences(expected, actual);
        if (!differences.isEmpty()) {
            fail("docs/configuration.md does not match the registered options:\n  " + String.join("\n  ", differences)
                    + "\nRegenerate it from the repository root with:\n  " + ConfigurationDocs.REGENERATE_COMMAND);
        }
    }

    @Test
    void tablesOfInvisibleProvidersAreKeptAndStaleOnesDropped() {
        String foreign = "<!-- provider: com.example.absent.PluginOptions -->\n\n"
                + "| Option | Type | Default | Description |\n|---|---|---|---|\n"
                + "| `plugin_flag`<br>`ELASTIC_APM_PLUGIN_FLAG` | Boolean | `true` | A plugin's option. |\n";
        String stale = "<!-- provider: " + TestOptions.class.getName() + " -->\n\n"
                + "| Option | Type | Default | Description |\n|---|---|---|---|\n"
                + "| `test_timeout`<br>`ELASTIC_APM_TEST_TIMEOUT` | Duration | `5s` | Old. |\n";
        String existing = "# whatever\n\n### Plugins\n\n" + foreign + "\n### Test\n\n" + stale + "\n" + ConfigurationDocs.OPTIONS_END + "\n";

        String generated = ConfigurationDocs.render(OptionRegistry.of(new CoreOptions()), existing, LOADER);
        assertTrue(generated.contains("### Plugins\n\n" + foreign + "\n" + ConfigurationDocs.OPTIONS_END), generated);
        assertFalse(generated.contains("test_timeout"), "a loadable provider that is no longer registered loses its table");
        assertTrue(generated.indexOf("### Core") < generated.indexOf("### Plugins"), "Core comes first");
        assertEquals(generated, ConfigurationDocs.render(OptionRegistry.of(new CoreOptions()), generated, LOADER), "stable");

        String withTest = ConfigurationDocs.render(OptionRegistry.of(new CoreOptions(), new TestOptions()), generated, LOADER);
        assertTrue(withTest.indexOf("### Plugins") < withTest.indexOf("### Test"), "other categories alphabetically");
    }

    @Test
    void differencesNameTheOptions() {
        String generated = ConfigurationDocs.render(OptionRegistry.of(new CoreOptions(), new TestOptions()), "", LOADER);
        String edited = generated
                .replace("| `test_size`<br>`ELASTIC_APM_TEST_SIZE` | Size | `768kb` | A size. |\n", "")
                .replace("| Integer (secret) | none | A secret that must be a number. |", "| Integer (secret) | none | Changed. |")
                + "| `gone_option`<br>`ELASTIC_APM_GONE_OPTION` | Boolean | `true` | Removed. |\n";
        String report = String.join("\n", ConfigurationDocs.differences(generated, edited));
        assertTrue(report.contains("missing option test_size"), report);
        assertTrue(report.contains("option test_secret_number differs"), report);
        assertTrue(report.contains("documented option gone_option is not in the registry"), report);

        String prose = ConfigurationDocs.differences(generated, generated.replace("## Value formats", "## Formats")).get(0);
        assertTrue(prose.startsWith("the text differs at line") && prose.contains("## Formats"), prose);
        assertEquals(List.of(), ConfigurationDocs.differences(generated, generated));
    }

    @Test
    void everyOptionIsDocumentedWithTypeDefaultAndSecretMark() {
        String generated = ConfigurationDocs.render(OptionRegistry.of(new CoreOptions()), "", LOADER);
        for (ConfigOption<?> option : new CoreOptions().options()) {
            assertTrue(generated.contains("| `" + option.key() + "`<br>`ELASTIC_APM_" + option.key().toUpperCase() + "` | " + option.type()),
                    option.key());
        }
        assertTrue(generated.contains("| `secret_token`<br>`ELASTIC_APM_SECRET_TOKEN` | String (secret) | none |"));
        assertTrue(generated.contains("| `server_url`<br>`ELASTIC_APM_SERVER_URL` | URL | `http://127.0.0.1:8200` |"));
        assertTrue(generated.startsWith("<!--") && generated.contains(ConfigurationDocs.REGENERATE_COMMAND));
        assertFalse(generated.contains("{{"), "every placeholder is filled");
    }

    /** The directory holding mvnw, from the module directory Surefire runs in. */
    static Path projectRoot() {
        Path dir = Paths.get("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("mvnw")) && Files.isDirectory(p.resolve("apm-agent-core"))) {
                return p;
            }
        }
        throw new IllegalStateException("no project root above " + dir);
    }
}
