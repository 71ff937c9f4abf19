package dev.apmagent.config;

import dev.apmagent.log.AgentLog;
import dev.apmagent.log.LogLevel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigLoaderTest {

    private static final OptionRegistry REGISTRY = OptionRegistry.of(new CoreOptions(), new TestOptions());

    @TempDir
    Path agentHome;

    private final Map<String, String> sysProps = new HashMap<>();
    private final Map<String, String> env = new HashMap<>();

    @AfterEach
    void restoreLog() {
        AgentLog.configure(LogLevel.INFO, AgentLog.SYSTEM_OUT, null);
    }

    private ConfigLoader.Result load(String agentArgs) {
        return ConfigLoader.load(REGISTRY, agentArgs, sysProps, env, agentHome.toFile());
    }

    private void writeDefaultFile(String... lines) throws IOException {
        Files.write(agentHome.resolve(ConfigLoader.DEFAULT_CONFIG_FILE), Arrays.asList(lines), StandardCharsets.UTF_8);
    }

    /** Which sources set service_name (a = agent args, s = system property, e = environment, f = file) -> winner. */
    @ParameterizedTest(name = "set in {0} -> {1}")
    @CsvSource({
            "asef, args", "sef, sysprop", "ef, env", "f, file", "af, args", "se, sysprop", "as, args", "ae, args",
            "sf, sysprop", "e, env", "s, sysprop", "a, args",
    })
    void higherSourcesWin(String sources, String winner) throws IOException {
        String args = sources.contains("a") ? "service_name=args" : null;
        if (sources.contains("s")) {
            sysProps.put("elastic.apm.service_name", "sysprop");
        }
        if (sources.contains("e")) {
            env.put("ELASTIC_APM_SERVICE_NAME", "env");
        }
        if (sources.contains("f")) {
            writeDefaultFile("service_name=file");
        }
        ConfigLoader.Result result = load(args);
        assertEquals(winner, result.config().get(CoreOptions.SERVICE_NAME));
        assertTrue(result.config().isSet(CoreOptions.SERVICE_NAME));
        assertEquals(Collections.emptyList(), result.warnings());
    }

    @Test
    void eachOptionIsDecidedOnItsOwn() throws IOException {
        writeDefaultFile("environment=file-env", "transaction_max_spans=10", "log_level=debug");
        env.put("ELASTIC_APM_TRANSACTION_MAX_SPANS", "20");
        env.put("ELASTIC_APM_HOSTNAME", "env-host");
        sysProps.put("elastic.apm.hostname", "sysprop-host");
        sysProps.put("java.version", "17");
        Config config = load("test_timeout=250ms").config();
        assertEquals("file-env", config.get(CoreOptions.ENVIRONMENT));
        assertEquals(20, config.get(CoreOptions.TRANSACTION_MAX_SPANS));
        assertEquals("sysprop-host", config.get(CoreOptions.HOSTNAME));
        assertEquals(LogLevel.DEBUG, config.get(CoreOptions.LOG_LEVEL));
        assertEquals(250L, config.get(TestOptions.TIMEOUT));
        assertEquals(1.0, config.get(CoreOptions.TRANSACTION_SAMPLE_RATE));
        assertFalse(config.isSet(CoreOptions.TRANSACTION_SAMPLE_RATE));
    }

    @Test
    void blankValuesCountAsNotSet() {
        sysProps.put("elastic.apm.environment", "  ");
        env.put("ELASTIC_APM_ENVIRONMENT", "staging");
        ConfigLoader.Result result = load("environment=");
        assertEquals("staging", result.config().get(CoreOptions.ENVIRONMENT));
        assertEquals(Collections.emptyList(), result.warnings());
    }

    @Test
    void typedValuesFromEverySource() {
        sysProps.put("elastic.apm.test_size", "2mb");
        env.put("ELASTIC_APM_TEST_IGNORE_URLS", "/a*,(?-i)*.JS");
        Config config = load("test_timeout=10;disable_instrumentations=jdbc, servlet").config();
        assertEquals(10_000L, config.get(TestOptions.TIMEOUT), "a bare number is in the option's default unit (s)");
        assertEquals(2L * 1024 * 1024, config.get(TestOptions.SIZE));
        assertTrue(config.get(TestOptions.IGNORE).matches("/A/b"));
        assertFalse(config.get(TestOptions.IGNORE).matches("/x.js"));
        assertEquals(Arrays.asList("jdbc", "servlet"), config.get(CoreOptions.DISABLE_INSTRUMENTATIONS));
    }

    /** One warning line per invalid value, naming option, value, origin and reason; the default applies. */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "transaction_sample_rate | 1.5     | must be between",
            "enabled                 | yes     | expected true or false",
            "test_timeout            | 5 weeks | unknown duration unit",
            "test_size               | 1tb     | unknown size unit",
            "log_level               | loud    | expected one of",
            "server_url              | apm:8200 | expected an http",
            "object_pool             | magic   | expected one of",
            "test_buggy              | boom    | the parser failed with java.lang.NullPointerException",
            "test_ignore_urls        | ',,,'   | the list has no entries",
            "disable_instrumentations | ',,'    | the list has no entries",
            "server_urls             | ,       | the list has no entries",
    })
    void invalidValueGivesOneWarningAndTheDefault(String key, String value, String reason) {
        sysProps.put("elastic.apm." + key, value);
        ConfigLoader.Result result = load(null);
        assertEquals(1, result.warnings().size(), result.warnings().toString());
        String warning = result.warnings().get(0);
        assertTrue(warning.contains(key) && warning.contains("'" + value + "'") && warning.contains(reason)
                && warning.contains("system property elastic.apm." + key), warning);
        ConfigOption<?> option = REGISTRY.option(key);
        assertEquals(option.defaultValue(), result.config().get(option));
        assertFalse(result.config().isSet(option));
        assertFalse(result.effectiveConfiguration().contains(key), "an invalid value is not part of the effective configuration");
    }

    @Test
    void unknownKeysGiveOneWarningEachWithAHintAndNoValue() throws IOException {
        sysProps.put("elastic.apm.servce_name", "value-a");
        env.put("ELASTIC_APM_TOTALLY_UNKNOWN", "value-b");
        env.put("OTHER_VAR", "ignored");
        writeDefaultFile("enviroment=value-c");
        ConfigLoader.Result result = load("nonsense_key=value-d");
        List<String> warnings = result.warnings();
        assertEquals(4, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("nonsense_key") && warnings.get(0).contains("agent argument"), warnings.get(0));
        assertTrue(warnings.get(1).contains("servce_name") && warnings.get(1).contains("did you mean service_name?"), warnings.get(1));
        assertTrue(warnings.get(2).contains("ELASTIC_APM_TOTALLY_UNKNOWN") && !warnings.get(2).contains("did you mean"), warnings.get(2));
        assertTrue(warnings.get(3).contains("enviroment") && warnings.get(3).contains("did you mean environment?"), warnings.get(3));
        for (String w : warnings) {
            assertFalse(w.contains("value-"), "unknown keys' values are not printed: " + w);
        }
    }

    @Test
    void configFileIsNamedByHigherSourcesOnly(@TempDir Path elsewhere) throws IOException {
        Path custom = elsewhere.resolve("custom.properties");
        Files.write(custom, Arrays.asList("# comment", "environment=from-custom", "config_file=/nowhere.properties"), StandardCharsets.UTF_8);
        writeDefaultFile("environment=from-default-file", "hostname=default-file-host");
        env.put("ELASTIC_APM_CONFIG_FILE", custom.toString());
        ConfigLoader.Result result = load(null);
        assertEquals("from-custom", result.config().get(CoreOptions.ENVIRONMENT));
        assertEquals(null, result.config().get(CoreOptions.HOSTNAME), "the default file is not read when config_file is set");
        assertEquals(1, result.warnings().size(), result.warnings().toString());
        assertTrue(result.warnings().get(0).contains("config_file cannot be set in a configuration file"));
    }

    @Test
    void prefixedKeysInTheFileGetAPreciseHint() throws IOException {
        writeDefaultFile("elastic.apm.environment=x");
        ConfigLoader.Result result = load(null);
        assertEquals(null, result.config().get(CoreOptions.ENVIRONMENT));
        assertEquals(1, result.warnings().size());
        assertTrue(result.warnings().get(0).startsWith("Keys in a configuration file have no prefix: write environment instead of elastic.apm.environment"),
                result.warnings().get(0));
    }

    @Test
    void configFileMayUseAgentHome() throws IOException {
        Files.write(agentHome.resolve("other.properties"), Collections.singletonList("environment=home"), StandardCharsets.UTF_8);
        ConfigLoader.Result result = load("config_file=_AGENT_HOME_/other.properties");
        assertEquals("home", result.config().get(CoreOptions.ENVIRONMENT));
        assertEquals(Collections.emptyList(), result.warnings());
    }

    @Test
    void missingConfigFileGivesOneWarning() {
        sysProps.put("elastic.apm.config_file", "/does/not/exist.properties");
        ConfigLoader.Result result = load(null);
        assertEquals(1, result.warnings().size());
        assertTrue(result.warnings().get(0).contains("/does/not/exist.properties"), result.warnings().get(0));
    }

    @Test
    void noAgentDirectoryMeansNoDefaultFile() {
        ConfigLoader.Result result = ConfigLoader.load(REGISTRY, null, null, null, null);
        assertEquals(Collections.emptyList(), result.warnings());
        assertEquals(ServiceNames.FALLBACK, result.config().get(CoreOptions.SERVICE_NAME));
    }

    @Test
    void serviceNameIsDerivedWhenAbsentOrInvalid() {
        sysProps.put("sun.java.command", "/opt/app/order-service-1.4.2.jar --port 1");
        ConfigLoader.Result derived = load(null);
        assertEquals("order-service", derived.config().get(CoreOptions.SERVICE_NAME));
        assertFalse(derived.config().isSet(CoreOptions.SERVICE_NAME));
        assertTrue(derived.effectiveConfiguration().contains("service_name: order-service  (derived from sun.java.command)"),
                derived.effectiveConfiguration());

        ConfigLoader.Result invalid = load("service_name=my.service");
        assertEquals("order-service", invalid.config().get(CoreOptions.SERVICE_NAME));
        assertEquals(1, invalid.warnings().size());
        assertTrue(invalid.warnings().get(0).contains("'my.service'"), invalid.warnings().get(0));
    }

    @Test
    void startUpHelpersReadTheRealJvm() {
        File dir = ConfigLoader.agentJarDir(ConfigLoaderTest.class);
        assertTrue(dir != null && dir.isDirectory(), String.valueOf(dir));
        assertEquals(System.getProperty("java.version"), ConfigLoader.systemProperties().get("java.version"));
    }

    @Test
    void repeatedAgentArgumentKeepsTheLastValue() {
        ConfigLoader.Result result = load("environment=a;environment=b");
        assertEquals("b", result.config().get(CoreOptions.ENVIRONMENT));
        assertEquals(1, result.warnings().size());
    }

    @Test
    void effectiveConfigurationListsSetOptionsWithOrigins() {
        sysProps.put("elastic.apm.environment", "prod");
        env.put("ELASTIC_APM_TRANSACTION_SAMPLE_RATE", "0.5");
        String dump = load("service_name=svc").effectiveConfiguration();
        String nl = System.lineSeparator();
        assertEquals("Effective configuration (options not at their default; all others are):" + nl
                + "  environment: prod  (system property elastic.apm.environment)" + nl
                + "  service_name: svc  (agent argument service_name)" + nl
                + "  transaction_sample_rate: 0.5  (environment variable ELASTIC_APM_TRANSACTION_SAMPLE_RATE)", dump);
    }

    /** A provider whose options() throws, and null maps: still a result, with warnings. */
    @Test
    void neverThrows() {
        OptionProvider broken = new OptionProvider() {
            @Override
            public String category() {
                return "Broken";
            }

            @Override
            public List<ConfigOption<?>> options() {
                throw new IllegalStateException("bug");
            }
        };
        ConfigLoader.Result result = ConfigLoader.load(OptionRegistry.of(new CoreOptions(), broken), "x", null, null, new File("/nonexistent"));
        assertEquals(2, result.warnings().size(), result.warnings().toString());
        assertTrue(result.config().get(CoreOptions.ENABLED));
    }

    /** Secret values appear in no produced string: warnings, dump, toString, log lines. */
    @Test
    void secretsAreNeverPrinted() throws IOException {
        String[] secrets = {"S3cr3t-args", "S3cr3t-sysprop", "S3cr3t-env", "S3cr3t-file", "S3cr3t-notanumber", "S3cr3t-apikey"};
        writeDefaultFile("secret_token=" + secrets[3], "test_secret_number=" + secrets[4]);
        env.put("ELASTIC_APM_SECRET_TOKEN", secrets[2]);
        env.put("ELASTIC_APM_API_KEY", secrets[5]);
        sysProps.put("elastic.apm.secret_token", secrets[1]);
        ConfigLoader.Result result = load("secret_token=" + secrets[0] + ",log_level=debug,log_file=_AGENT_HOME_/agent.log");
        assertEquals(secrets[0], result.config().get(CoreOptions.SECRET_TOKEN));
        assertEquals(1, result.warnings().size(), "the secret number is invalid: " + result.warnings());
        assertTrue(result.warnings().get(0).contains("'[REDACTED]'"), result.warnings().get(0));
        assertTrue(result.effectiveConfiguration().contains("secret_token: [REDACTED]  (agent argument secret_token)"));

        result.initLogging(); // log_file=_AGENT_HOME_/agent.log, log_level=debug
        AgentLog.get(ConfigLoaderTest.class).error("a component printing a header: Bearer {}", result.config().get(CoreOptions.SECRET_TOKEN));
        AgentLog.get(ConfigLoaderTest.class).error("a failure", new IllegalStateException("token " + secrets[2] + " rejected"));
        String log = new String(Files.readAllBytes(agentHome.resolve("agent.log")), StandardCharsets.UTF_8);
        assertTrue(log.contains("Effective configuration") && log.contains("Invalid value '[REDACTED]'")
                && log.contains("Bearer [REDACTED]") && log.contains("token [REDACTED] rejected"), log);

        String everything = String.join("\n", result.warnings()) + result.effectiveConfiguration() + result.config() + log;
        for (String secret : secrets) {
            assertFalse(everything.contains(secret), secret + " leaked");
        }
    }

    /** Credentials in a server URL appear in no warning, dump or log line; a port out of range is a malformed URL. */
    @Test
    void urlCredentialsAreNeverPrintedAndThePortIsChecked() throws IOException {
        sysProps.put("elastic.apm.server_url", "http://apm-user:Pa55word@apm.example.com:99999");
        sysProps.put("elastic.apm.server_urls", "http://svc:T0ken@a.example.com:8200,http://b.example.com:8200");
        ConfigLoader.Result result = load("log_level=debug,log_file=_AGENT_HOME_/agent.log");
        assertEquals(1, result.warnings().size(), result.warnings().toString());
        assertEquals("Invalid value 'http://[REDACTED]@apm.example.com:99999' for server_url (system property"
                + " elastic.apm.server_url): the port 99999 is out of range (1 to 65535); the default http://127.0.0.1:8200"
                + " is used", result.warnings().get(0));
        assertEquals(CoreOptions.SERVER_URL.defaultValue(), result.config().get(CoreOptions.SERVER_URL));
        assertTrue(result.effectiveConfiguration().contains("server_urls: http://[REDACTED]@a.example.com:8200,http://b.example.com:8200"),
                result.effectiveConfiguration());

        result.initLogging();
        AgentLog.get(ConfigLoaderTest.class).warn("a component printing a raw URL: {}", result.config().get(CoreOptions.SERVER_URLS));
        String log = new String(Files.readAllBytes(agentHome.resolve("agent.log")), StandardCharsets.UTF_8);
        assertTrue(log.contains("a component printing a raw URL: [http://[REDACTED]@a.example.com:8200"), log);
        String everything = String.join("\n", result.warnings()) + result.effectiveConfiguration() + log;
        assertFalse(everything.contains("Pa55word") || everything.contains("T0ken"), everything);
    }

    /** A binary configuration file: its keys reach the log escaped, each warning on a line of its own. */
    @Test
    void controlCharactersFromAConfigFileAreEscapedInTheLog() throws IOException {
        Files.write(agentHome.resolve(ConfigLoader.DEFAULT_CONFIG_FILE), "gone\u001b[2J\u0085x=1\nbidi\u202eevil\u2028y=2\n\u007fdel=3\n"
                .getBytes(StandardCharsets.UTF_8));
        sysProps.put("elastic.apm.log_file", "_AGENT_HOME_/agent.log");
        sysProps.put("elastic.apm.log_level", "debug");
        ConfigLoader.Result result = load(null);
        assertEquals(3, result.warnings().size(), result.warnings().toString());
        result.initLogging();
        String log = new String(Files.readAllBytes(agentHome.resolve("agent.log")), StandardCharsets.UTF_8);
        assertTrue(log.contains("Unknown option gone\\u001b[2j\\u0085x (file "), log);
        assertTrue(log.contains("Unknown option bidi\\u202eevil\\u2028y (file "), log);
        assertTrue(log.contains("Unknown option \\u007fdel (file "), log);
        for (char c : log.toCharArray()) {
            assertTrue(c >= 0x20 && c != 0x7f && !(c >= 0x80 && c <= 0x9f) && c != 0x2028 && c != 0x202e || c == '\n',
                    "unescaped U+" + Integer.toHexString(c) + " in " + log);
        }
    }

    @Test
    void initLoggingAppliesLevelAndFile() throws IOException {
        Path logFile = agentHome.resolve("logs/agent.log");
        sysProps.put("elastic.apm.log_file", "_AGENT_HOME_/logs/agent.log");
        sysProps.put("elastic.apm.log_level", "WARNING");
        env.put("ELASTIC_APM_NOT_AN_OPTION", "x");
        load(null).initLogging();
        assertEquals(LogLevel.WARN, AgentLog.level());
        AgentLog.get(ConfigLoaderTest.class).info("not written at WARN");
        String text = new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8);
        assertTrue(text.contains("WARN  ConfigLoader - Unknown option not_an_option"), text);
        assertFalse(text.contains("not written"), text);
    }
}
