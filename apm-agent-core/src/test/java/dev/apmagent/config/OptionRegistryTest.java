package dev.apmagent.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptionRegistryTest {

    @ParameterizedTest(name = "{0} ~ {1} = {2}")
    @CsvSource({"service_name, service_name, 0", "servce_name, service_name, 1", "enviroment, environment, 1",
            "abc, xyz, 3", "'', ab, 2", "log_levle, log_level, 2"})
    void editDistanceIsCappedAtTheLimit(String a, String b, int expected) {
        assertEquals(expected, OptionRegistry.editDistance(a, b, 3));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"servce_name, service_name", "SERVER_URL, ", "server_ur, server_url", "qqqqqq, ", "log_levle, log_level"})
    void closestKey(String unknown, String expected) {
        assertEquals(expected, OptionRegistry.of(new CoreOptions()).closestKey(unknown));
    }

    @Test
    void aKeyDeclaredTwiceKeepsTheFirstAndWarns() {
        ConfigOption<Boolean> clash = ConfigOption.of("enabled", "Boolean", "false", Parsers.BOOLEAN, "Clash.");
        OptionProvider second = new OptionProvider() {
            @Override
            public String category() {
                return "Second";
            }

            @Override
            public List<ConfigOption<?>> options() {
                return Collections.singletonList(clash);
            }
        };
        OptionRegistry registry = OptionRegistry.of(new CoreOptions(), second);
        assertSame(CoreOptions.ENABLED, registry.option("enabled"));
        assertEquals(1, registry.warnings().size());
        assertTrue(registry.warnings().get(0).contains("enabled"), registry.warnings().get(0));
    }

    @Test
    void optionDeclarationsAreValidated() {
        assertThrows(IllegalStateException.class, () -> ConfigOption.of("Bad-Key", "String", null, Parsers.STRING, "x"));
        assertThrows(IllegalStateException.class, () -> ConfigOption.of("n", "Integer", "nope", Parsers.INTEGER, "x"));
        assertThrows(IllegalStateException.class, () -> ConfigOption.of("n", "Integer", "1", Parsers.INTEGER, null));
        assertEquals(ConfigOption.REDACTED, CoreOptions.API_KEY.display("k"));
        assertEquals("k", CoreOptions.ENVIRONMENT.display("k"));
    }

    /** ServiceLoader over a class loader: a listed class that is absent becomes a warning, the others load. */
    @Test
    void loadsProvidersFromServiceFilesAndToleratesMissingClasses(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path services = dir.resolve("META-INF/services/" + OptionProvider.class.getName());
        java.nio.file.Files.createDirectories(services.getParent());
        java.nio.file.Files.write(services, java.util.Arrays.asList("# a comment", "com.example.MissingPluginOptions", TestOptions.class.getName()));
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[]{dir.toUri().toURL()}, getClass().getClassLoader())) {
            OptionRegistry registry = OptionRegistry.load(loader);
            assertSame(CoreOptions.ENABLED, registry.option("enabled"));
            assertSame(TestOptions.TIMEOUT, registry.option("test_timeout"));
            assertEquals(1, registry.warnings().size(), registry.warnings().toString());
            assertTrue(registry.warnings().get(0).contains("com.example.MissingPluginOptions"), registry.warnings().get(0));
        }
    }

    /**
     * No duplicate keys and no provider that fails; a provider listed in this module's services file whose class lives
     * in another module (a plugin) is "not found" here and tolerated.
     */
    @Test
    void theRegistryOfThisModuleLoadsCleanly() {
        OptionRegistry registry = OptionRegistry.load(getClass().getClassLoader());
        for (String warning : registry.warnings()) {
            assertTrue(warning.contains("could not be loaded") && warning.contains(" not found"), warning);
        }
        assertSame(CoreOptions.SERVICE_NAME, registry.option("service_name"));
        assertTrue(registry.option("test_timeout") == null, "TestOptions must stay unregistered");
    }

    /** Config.toString names keys only, never values. */
    @Test
    void configToStringPrintsNoValues() {
        Config config = Config.ofParsed(Collections.singletonMap("secret_token", "hunter2"));
        assertEquals("Config[secret_token]", config.toString());
        assertTrue(config.isSet(CoreOptions.SECRET_TOKEN));
        assertEquals("hunter2", config.get(CoreOptions.SECRET_TOKEN));
    }
}
