package dev.apmagent.it.e2e;

import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import dev.apmagent.it.apps.HelloApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every option of docs/configuration.md (which ConfigurationDocsIT keeps equal to the shipped jar's registry) given a
 * malformed value for its type, all at once as {@code -Delastic.apm.*} system properties: the application starts and
 * behaves as without the agent (stdout, stderr, exit code), the agent starts, and its log holds exactly one WARN line
 * per malformed option. Options whose type accepts any text (plain strings) have no malformed value and are listed as
 * such; {@code config_file} (a missing file) and {@code service_name} (forbidden characters) do, and so does every
 * list (commas and nothing else).
 * {@code log_file} stays valid: it is where the warnings are read.
 */
class BadConfigurationIT {

    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9_]+)`<br>`ELASTIC_APM_[A-Z0-9_]+` \\| ([^|]+) \\|");

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** option -> type, in the order of the documentation. */
    static Map<String, String> documentedOptions() throws Exception {
        Path doc = Paths.get(System.getProperty("user.dir")).resolve("../docs/configuration.md").normalize();
        Map<String, String> options = new LinkedHashMap<>();
        for (String line : Files.readAllLines(doc, StandardCharsets.UTF_8)) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                options.put(m.group(1), m.group(2).trim());
            }
        }
        assertThat(options).as("options parsed from " + doc).hasSizeGreaterThan(20).containsKeys("enabled", "server_url", "max_buffer_size");
        return options;
    }

    /** A value that does not parse for the type, or null when the type accepts any text. */
    static String malformed(String option, String type) {
        switch (option) {
            case "service_name": return "bad/name!";
            case "config_file": return "/nonexistent/apm-agent-bad-config/elasticapm.properties";
            case "log_file": return null; // kept valid: the warnings are read from it
            default: break;
        }
        if (type.startsWith("Boolean")) {
            return "maybe";
        } else if (type.startsWith("Integer")) {
            return "12x";
        } else if (type.startsWith("Double")) {
            return "half";
        } else if (type.startsWith("Duration")) {
            return "5 parsecs";
        } else if (type.startsWith("Size")) {
            return "4 lightyears";
        } else if (type.equals("URL") || type.equals("List of URLs")) {
            return "ftp:not a url";
        } else if (type.startsWith("Enum")) {
            return "bogus";
        } else if (type.startsWith("List")) {
            return ",,,";
        }
        return null; // String: any text is a value
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void everyMalformedOptionGivesOneWarningAndChangesNothing(Jdk jdk, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("agent.log");
        ForkedJvm with = ForkedJvm.on(jdk).withAgent("").jvmArg("-Delastic.apm.log_file=" + log);
        List<String> malformedOptions = new ArrayList<>();
        List<String> anyText = new ArrayList<>();
        for (Map.Entry<String, String> option : documentedOptions().entrySet()) {
            String value = malformed(option.getKey(), option.getValue());
            if (value == null) {
                anyText.add(option.getKey() + " (" + option.getValue() + ")");
            } else {
                malformedOptions.add(option.getKey());
                with.jvmArg("-Delastic.apm." + option.getKey() + "=" + value);
            }
        }
        System.out.println("BadConfigurationIT: malformed " + malformedOptions + "; no malformed value for " + anyText);

        ForkedJvm.Result without = ForkedJvm.on(jdk).main(HelloApp.class, "5").run();
        ForkedJvm.Result result = with.main(HelloApp.class, "5").run();
        assertThat(result.exitCode).as(result.toString()).isEqualTo(without.exitCode).isEqualTo(5);
        assertThat(result.stdout).isEqualTo(without.stdout);
        assertThat(result.stderr).isEqualTo(without.stderr);

        String agentLog = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        assertThat(agentLog).as(agentLog).containsPattern("apm-agent \\S+ started");
        List<String> warnLines = new ArrayList<>();
        for (String line : agentLog.split("\n")) {
            if (line.contains("] WARN ")) {
                warnLines.add(line);
            }
        }
        for (String option : malformedOptions) {
            List<String> about = new ArrayList<>();
            for (String line : warnLines) {
                if (line.contains(" for " + option + " (") || line.contains(option + " /nonexistent/")) {
                    about.add(line);
                }
            }
            assertThat(about).as("WARN lines about " + option + " in\n" + agentLog).hasSize(1);
        }
    }
}
