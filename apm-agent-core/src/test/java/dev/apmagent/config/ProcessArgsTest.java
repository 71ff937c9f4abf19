package dev.apmagent.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProcessArgsTest {

    private static final java.util.Set<String> SECRET_KEYS = ProcessArgs.secretKeys(Collections.<ConfigOption<?>>emptyList());

    private static List<String> redact(String... args) {
        return ProcessArgs.redact(Arrays.asList(args), ProcessArgs.DEFAULT_SANITIZE_FIELD_NAMES, SECRET_KEYS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "-Delastic.apm.secret_token=t0k3n                  | -Delastic.apm.secret_token=[REDACTED]",
            "-Delastic.apm.api_key=k3y                         | -Delastic.apm.api_key=[REDACTED]",
            "-Ddb.password=pw                                  | -Ddb.password=[REDACTED]",
            "-DPASSWORD=pw                                     | -DPASSWORD=[REDACTED]",
            "-Dapp.session.timeout=30                          | -Dapp.session.timeout=[REDACTED]",
            "--password=pw                                     | --password=[REDACTED]",
            "-pwd=pw                                           | -pwd=[REDACTED]",
            "--secret_token=t                                  | --secret_token=[REDACTED]",
            "-Delastic.apm.server_url=http://user:pw@apm:8200  | -Delastic.apm.server_url=http://[REDACTED]@apm:8200",
            "-javaagent:/opt/apm-agent.jar=secret_token=x,api_key=y,service_name=svc | -javaagent:/opt/apm-agent.jar=secret_token=[REDACTED],api_key=[REDACTED],service_name=svc",
            "-javaagent:/opt/apm-agent.jar=service_name=svc;secret_token=a,b;server_url=http://u:p@h | -javaagent:/opt/apm-agent.jar=service_name=svc;secret_token=[REDACTED];server_url=http://[REDACTED]@h",
            "-javaagent:/opt/apm-agent.jar=disable_instrumentations=jdbc,servlet,api_key=y | -javaagent:/opt/apm-agent.jar=disable_instrumentations=jdbc,servlet,api_key=[REDACTED]",
            "-agentlib:jdwp=transport=dt_socket,server=y       | -agentlib:jdwp=transport=dt_socket,server=y",
            "-Dservice.name=orders                             | -Dservice.name=orders",
            "-Xmx512m                                          | -Xmx512m",
            "-XX:+UseG1GC                                      | -XX:+UseG1GC",
            "-Dfile.encoding=UTF-8                             | -Dfile.encoding=UTF-8",
            "-Dtoken                                           | -Dtoken",
    })
    void redactsSensitiveValuesOfOneArgument(String arg, String expected) {
        assertEquals(Collections.singletonList(expected), redact(arg));
    }

    @Test
    void aFlagWithoutValueRedactsTheNextArgument() {
        assertEquals(Arrays.asList("--password", "[REDACTED]", "--user", "bob"), redact("--password", "s3cret", "--user", "bob"));
        assertEquals(Arrays.asList("--password", "--verbose"), redact("--password", "--verbose"));
        assertEquals(Collections.singletonList("--password"), redact("--password"));
    }

    /** The configured sanitize_field_names (an option the HTTP plugin declares) decides, and the secrets stay redacted. */
    @Test
    void theConfiguredPatternsDecide() {
        WildcardMatcherList patterns = WildcardMatcherList.of("*license*");
        assertEquals(Arrays.asList("-Dlicense.key=[REDACTED]", "-Ddb.password=pw", "-Delastic.apm.secret_token=[REDACTED]"),
                ProcessArgs.redact(Arrays.asList("-Dlicense.key=L", "-Ddb.password=pw", "-Delastic.apm.secret_token=t"),
                        patterns, SECRET_KEYS));

        ConfigOption<WildcardMatcherList> declared = ConfigOption.of(ProcessArgs.SANITIZE_FIELD_NAMES, "List of wildcards",
                "*license*", Parsers.WILDCARD_LIST, "as a plugin declares it");
        OptionProvider plugin = new OptionProvider() {
            @Override
            public String category() {
                return "HTTP";
            }

            @Override
            public List<ConfigOption<?>> options() {
                return Collections.<ConfigOption<?>>singletonList(declared);
            }
        };
        OptionRegistry registry = OptionRegistry.of(new CoreOptions(), plugin);
        Map<String, String> sysProps = new HashMap<String, String>();
        Config byDefault = ConfigLoader.load(registry, null, sysProps, null, null).config();
        assertEquals(patterns, ProcessArgs.sanitizeFieldNames(byDefault));
        sysProps.put("elastic.apm.sanitize_field_names", "*pass*");
        Config set = ConfigLoader.load(registry, null, sysProps, null, null).config();
        assertEquals(WildcardMatcherList.of("*pass*"), ProcessArgs.sanitizeFieldNames(set));
        assertEquals(ProcessArgs.DEFAULT_SANITIZE_FIELD_NAMES, ProcessArgs.sanitizeFieldNames(Config.defaults()));
    }
}
