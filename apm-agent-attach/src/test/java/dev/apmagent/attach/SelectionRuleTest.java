package dev.apmagent.attach;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class SelectionRuleTest {

    private static final JvmProcess ORDERS = JavaCommandLine.parse(10, Arrays.asList(
            "/usr/bin/java", "-Xmx1g", "-Dapp=orders", "-cp", "lib/*", "com.example.orders.OrdersApp", "--port", "8080"));
    private static final JvmProcess KAFKA = JavaCommandLine.parse(11, Arrays.asList(
            "java", "-Dkafka.logs.dir=/var/log", "-jar", "/opt/kafka/kafka-server.jar", "server.properties"));

    static Stream<Arguments> rules() {
        return Stream.of(
                // command line                                  orders  kafka
                Arguments.of("--include-all", true, true),
                Arguments.of("--include-main OrdersApp", true, false),
                Arguments.of("--include-main ^com\\.example\\.", true, false),
                Arguments.of("--include-main kafka", false, true),
                Arguments.of("--include-main \\.jar$", false, true),
                Arguments.of("--include-main --port", false, false),
                Arguments.of("--exclude-main kafka --include-all", true, false),
                Arguments.of("--include-all --exclude-main kafka", true, true),
                Arguments.of("--include-vmarg -Dapp=orders", true, false),
                Arguments.of("--include-vmarg ^-Xmx", true, false),
                Arguments.of("--include-vmarg server.properties", false, false),
                Arguments.of("--exclude-vmarg -Dkafka --include-all", true, false),
                Arguments.of("--exclude-vmarg -Dapp --include-main Orders", false, false),
                Arguments.of("--include-main Nothing --include-vmarg logs.dir", false, true));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("rules")
    void firstMatchingRuleDecides(String commandLine, boolean ordersSelected, boolean kafkaSelected) throws Exception {
        AttachArguments parsed = AttachArguments.parse(commandLine.split(" "));
        assertThat(SelectionRule.selects(parsed.rules(), ORDERS)).as("orders").isEqualTo(ordersSelected);
        assertThat(SelectionRule.selects(parsed.rules(), KAFKA)).as("kafka").isEqualTo(kafkaSelected);
    }
}
