package dev.apmagent.config;

import dev.apmagent.trace.HttpOptions;
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
        return ProcessArgs.redact(Arrays.asList(args), HttpOptions.SANITIZE_FIELD_NAMES.defaultValue(), SECRET_KEYS);
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

    /** The configured sanitize_field_names decides, and the secrets stay redacted. */
    @Test
    void theConfiguredPatternsDecide() {
        WildcardMatcherList patterns = WildcardMatcherList.of("*license*");
        assertEquals(Arrays.asList("-Dlicense.key=[REDACTED]", "-Ddb.password=pw", "-Delastic.apm.secret_token=[REDACTED]"),
                ProcessArgs.redact(Arrays.asList("-Dlicense.key=L", "-Ddb.password=pw", "-Delastic.apm.secret_token=t"),
                        patterns, SECRET_KEYS));
    }
}
