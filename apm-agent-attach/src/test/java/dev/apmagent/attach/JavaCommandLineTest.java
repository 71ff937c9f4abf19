package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class JavaCommandLineTest {

    static Stream<Arguments> commandLines() {
        return Stream.of(
                Arguments.of("java Main", "Main", "", ""),
                Arguments.of("/usr/lib/jvm/bin/java -Xmx1g -cp a.jar:b.jar com.example.App --port 80", "com.example.App", "-Xmx1g -cp a.jar:b.jar", "--port 80"),
                Arguments.of("java -classpath x com.A -cp y", "com.A", "-classpath x", "-cp y"),
                Arguments.of("java --class-path x com.A", "com.A", "--class-path x", ""),
                Arguments.of("java -jar /opt/app.jar -jar x", "/opt/app.jar", "", "-jar x"),
                Arguments.of("java -Dx=1 -jar app.jar", "app.jar", "-Dx=1", ""),
                Arguments.of("java -p mods -m my.mod/com.my.Main a", "my.mod/com.my.Main", "-p mods", "a"),
                Arguments.of("java --module-path mods --module my.mod/com.my.Main", "my.mod/com.my.Main", "--module-path mods", ""),
                Arguments.of("java --module=my.mod a b", "my.mod", "", "a b"),
                Arguments.of("java --add-opens java.base/java.lang=ALL-UNNAMED --add-modules=jdk.attach Main", "Main",
                        "--add-opens java.base/java.lang=ALL-UNNAMED --add-modules=jdk.attach", ""),
                Arguments.of("java @argfile Main x", "Main", "@argfile", "x"),
                Arguments.of("java -javaagent:/opt/apm-agent.jar=service_name=x -XX:+UseG1GC Main", "Main",
                        "-javaagent:/opt/apm-agent.jar=service_name=x -XX:+UseG1GC", ""),
                Arguments.of("java -version", "", "-version", ""),
                Arguments.of("/opt/tomcat/bin/jsvc -user tomcat org.apache.Daemon", "/opt/tomcat/bin/jsvc", "", "-user tomcat org.apache.Daemon"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("commandLines")
    void splitsLikeTheLauncher(String commandLine, String main, String vmArgs, String appArgs) {
        JvmProcess jvm = JavaCommandLine.parse(5, Arrays.asList(commandLine.split(" ")));
        assertThat(jvm.pid()).isEqualTo(5);
        assertThat(jvm.main()).isEqualTo(main);
        assertThat(String.join(" ", jvm.vmArgs())).isEqualTo(vmArgs);
        assertThat(String.join(" ", jvm.appArgs())).isEqualTo(appArgs);
    }

    @Test
    void javaagentOfThisAgentIsRecognised() {
        assertThat(JavaCommandLine.parse(1, Arrays.asList("java", "-javaagent:/opt/apm-agent.jar", "Main")).agent())
                .isEqualTo(JvmProcess.AgentPresence.JAVAAGENT);
        assertThat(JavaCommandLine.parse(1, Arrays.asList("java", "-javaagent:/opt/other.jar", "Main")).agent())
                .isEqualTo(JvmProcess.AgentPresence.UNKNOWN);
    }

    @Test
    void displayNameOfTheAttachApi() {
        JvmProcess jvm = JavaCommandLine.parseDisplayName(3, "com.example.App  --port 80");
        assertThat(jvm.main()).isEqualTo("com.example.App");
        assertThat(jvm.appArgs()).containsExactly("--port", "80");
        assertThat(JavaCommandLine.parseDisplayName(3, "").main()).isEmpty();
    }

    static Stream<Arguments> attachSwitches() {
        return Stream.of(
                Arguments.of("-Xmx1g", false),
                Arguments.of("-XX:+DisableAttachMechanism", true),
                Arguments.of("-XX:+DisableAttachMechanism -XX:-DisableAttachMechanism", false),
                Arguments.of("-XX:-DisableAttachMechanism -XX:+DisableAttachMechanism", true));
    }

    @ParameterizedTest
    @MethodSource("attachSwitches")
    void lastDisableAttachMechanismWins(String options, boolean disabled) {
        assertThat(JavaCommandLine.disablesAttach(Arrays.asList(options.split(" ")))).isEqualTo(disabled);
    }

    @Test
    void environmentOptionsAreAppliedInTheJvmsOrder() {
        List<String> cmdline = Arrays.asList("java", "-XX:-DisableAttachMechanism", "Main");
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_TOOL_OPTIONS", "-XX:+DisableAttachMechanism");
        assertThat(JavaCommandLine.disablesAttach(TargetAttacher.effectiveJvmOptions(cmdline, env, null))).as("command line wins").isFalse();
        env.put("_JAVA_OPTIONS", " -Xss1m  -XX:+DisableAttachMechanism ");
        assertThat(JavaCommandLine.disablesAttach(TargetAttacher.effectiveJvmOptions(cmdline, env, null))).as("_JAVA_OPTIONS wins").isTrue();
        assertThat(JavaCommandLine.disablesAttach(TargetAttacher.effectiveJvmOptions(
                Arrays.asList("java", "Main"), Collections.singletonMap("JDK_JAVA_OPTIONS", "-XX:+DisableAttachMechanism"), null))).isTrue();
        assertThat(JavaCommandLine.disablesAttach(TargetAttacher.effectiveJvmOptions(Arrays.asList("java", "Main"), null, null))).isFalse();
        Map<String, String> perfData = new HashMap<>();
        perfData.put("java.rt.vmArgs", "-Xmx1g -XX:+DisableAttachMechanism");
        assertThat(JavaCommandLine.disablesAttach(TargetAttacher.effectiveJvmOptions(cmdline, null, perfData)))
                .as("perf data has the options of @argfiles and the environment too").isTrue();
    }
}
