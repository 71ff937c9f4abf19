package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AttachArgumentsTest {

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("", "nothing to attach to"),
                Arguments.of("--config service_name=x", "nothing to attach to"),
                Arguments.of("--pid", "--pid needs a value"),
                Arguments.of("--pid abc", "not a pid: 'abc'"),
                Arguments.of("--pid 0", "not a pid: '0'"),
                Arguments.of("--pid -5", "not a pid: '-5'"),
                Arguments.of("--pid 12,x", "not a pid: 'x'"),
                Arguments.of("--include-main (", "--include-main: invalid regular expression '('"),
                Arguments.of("--include-vmarg [a", "--include-vmarg: invalid regular expression '[a'"),
                Arguments.of("--pid 1 --config novalue", "--config expects key=value, got 'novalue'"),
                Arguments.of("--pid 1 --config =x", "--config expects key=value"),
                Arguments.of("--pid 1 --config config_file=/x.properties", "give a properties file with --args-file FILE instead"),
                Arguments.of("--pid 1 --frobnicate", "unknown option --frobnicate"),
                Arguments.of("--pid 1 1234", "unexpected argument '1234' (pids are given with --pid)"),
                Arguments.of("--list --continuous", "--continuous and --list cannot be combined"),
                Arguments.of("--continuous", "--continuous attaches to JVMs as they start: select them with"),
                Arguments.of("--continuous --pid 3 --include-all", "--continuous cannot be combined with --pid"),
                Arguments.of("--exclude-main foo", "only --exclude-* rules were given"),
                Arguments.of("--include-all --poll-interval 10ms", "--poll-interval expects a duration between 100ms and 1h"),
                Arguments.of("--include-all --poll-interval soon", "--poll-interval expects a duration"),
                Arguments.of("--list=yes", "--list takes no value"),
                Arguments.of("--pid=", "--pid needs a value"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("invalid")
    void rejectsWithAMessageThatSaysWhy(String commandLine, String message) {
        assertThatThrownBy(() -> AttachArguments.parse(split(commandLine)))
                .isInstanceOf(AttachArguments.UsageException.class)
                .hasMessageContaining(message);
    }

    @Test
    void helpNeedsNothingElse() throws Exception {
        assertThat(AttachArguments.parse("--help").help).isTrue();
        assertThat(AttachArguments.parse("-h").help).isTrue();
        assertThat(AttachArguments.parse("--continuous", "--help").help).isTrue();
    }

    @Test
    void pidsAreRepeatableCommaSeparatedAndDeduplicatedInOrder() throws Exception {
        AttachArguments parsed = AttachArguments.parse("--pid", "42", "-p", "7,42", "--include-pid=9", "--pid=3");
        assertThat(parsed.pids).containsExactly(42L, 7L, 9L, 3L);
        assertThat(parsed.rules).isEmpty();
    }

    @Test
    void configPairsKeepOrderAndLastValueWins() throws Exception {
        AttachArguments parsed = AttachArguments.parse("--pid", "1", "--config", "service_name=a", "-C", "server_url=http://h:8200/x?a=b",
                "--config=service_name=b", "--config", "empty=");
        assertThat(parsed.config).containsExactly(
                org.assertj.core.api.Assertions.entry("service_name", "b"),
                org.assertj.core.api.Assertions.entry("server_url", "http://h:8200/x?a=b"),
                org.assertj.core.api.Assertions.entry("empty", ""));
    }

    @Test
    void everyOptionIsRecognised() throws Exception {
        AttachArguments parsed = AttachArguments.parse("--continuous", "--verbose", "--include-main", "App$", "--exclude-vmarg", "-Dno",
                "--include-vmarg", "-Dyes", "--exclude-main", "Kafka", "--include-all", "--args-file", "/etc/a.properties",
                "--agent-jar", "/opt/apm-agent.jar", "--poll-interval", "250ms");
        assertThat(parsed.continuous).isTrue();
        assertThat(parsed.verbose).isTrue();
        assertThat(parsed.list).isFalse();
        assertThat(parsed.pollMillis).isEqualTo(250);
        assertThat(parsed.argsFile).isEqualTo(new File("/etc/a.properties"));
        assertThat(parsed.agentJar).isEqualTo(new File("/opt/apm-agent.jar"));
        assertThat(parsed.rules).extracting(Object::toString).containsExactly(
                "--include-main App$", "--exclude-vmarg -Dno", "--include-vmarg -Dyes", "--exclude-main Kafka", "--include-all");
    }

    @Test
    void listVmArgsImpliesList() throws Exception {
        AttachArguments parsed = AttachArguments.parse("-v");
        assertThat(parsed.list).isTrue();
        assertThat(parsed.listVmArgs).isTrue();
        assertThat(AttachArguments.parse("--list").listVmArgs).isFalse();
    }

    static Stream<Arguments> durations() {
        return Stream.of(
                Arguments.of("100ms", 100L),
                Arguments.of("500ms", 500L),
                Arguments.of("2s", 2000L),
                Arguments.of("3", 3000L),
                Arguments.of("1m", 60_000L),
                Arguments.of("60m", 3_600_000L));
    }

    @ParameterizedTest
    @MethodSource("durations")
    void pollIntervals(String value, long millis) throws Exception {
        assertThat(AttachArguments.parseDurationMillis("--poll-interval", value)).isEqualTo(millis);
    }

    private static String[] split(String commandLine) {
        List<String> parts = new ArrayList<>();
        for (String part : commandLine.split(" ")) {
            if (!part.isEmpty()) {
                parts.add(part);
            }
        }
        return parts.toArray(new String[0]);
    }
}
