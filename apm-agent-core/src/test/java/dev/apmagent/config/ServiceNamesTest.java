package dev.apmagent.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ServiceNamesTest {

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(delimiter = '|', value = {
            "com.example.billing.BillingMain                 | BillingMain",
            "com.example.billing.BillingMain --port 8080      | BillingMain",
            "Main                                            | Main",
            "com.example.Outer$Inner                          | Outer-Inner",
            "app/com.example.app.Main arg                     | Main",
            "order-service.jar                               | order-service",
            "/opt/app/order-service-1.4.2.jar --spring.profiles.active=prod | order-service",
            "/opt/app/order-service-1.0-SNAPSHOT.jar         | order-service",
            "lib/shop-2.7.3.RELEASE.jar                      | shop",
            "spring-boot-3-app.jar                           | spring-boot-3-app",
            "app-v2.jar                                      | app-v2",
            "C:\\apps\\My Service\\inventory-1.2.jar x       | inventory",
            "'/opt/my apps/inventory.jar --x y.jar'          | inventory",
            "my.app.jar                                      | my-app",
            "/opt/app/ORDER.JAR                              | ORDER",
            "org.apache.catalina.startup.Bootstrap start     | tomcat-application",
            "/opt/jetty/start.jar jetty.http.port=8080       | jetty-application",
            "org.jboss.modules.Main -mp modules              | jboss-application",
            "com.example.Main --lib other.jar                | Main",
            "'  com.example.Main  '                          | Main",
            "...                                             | unknown-java-service",
            "com.example.__                                  | __",
            "com.example.日本                                 | --",
    })
    void derivesFromSunJavaCommand(String command, String expected) {
        assertEquals(expected, ServiceNames.derive(command));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   "})
    void fallsBackWhenThereIsNoCommand(String command) {
        assertEquals(ServiceNames.FALLBACK, ServiceNames.derive(command));
    }

    @ParameterizedTest(name = "''{0}'' -> ''{1}''")
    @CsvSource(delimiter = '|', value = {
            "my.service      | my-service",
            "'  a b  '       | a b",
            "ok_name-1       | ok_name-1",
            "ü/x:y           | ü-x-y",
    })
    void sanitizes(String name, String expected) {
        // 'ü' is outside [a-zA-Z0-9 _-] too
        assertEquals(expected.replace("ü", "-"), ServiceNames.sanitize(name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"my.service", "a/b", "naïve", "tab\there"})
    void parserRejectsWhatTheServerRejects(String configured) {
        assertThrows(IllegalArgumentException.class, () -> ServiceNames.PARSER.parse(configured));
    }

    @ParameterizedTest
    @ValueSource(strings = {"my-service", "My Service_2", " padded "})
    void parserAcceptsTheAllowedCharacters(String configured) {
        assertEquals(configured.trim(), ServiceNames.PARSER.parse(configured));
    }

    @org.junit.jupiter.api.Test
    void longNamesAreCut() {
        String longName = "x".repeat(2000);
        assertEquals(ServiceNames.MAX_LENGTH, ServiceNames.sanitize(longName).length());
        assertEquals(ServiceNames.MAX_LENGTH, ServiceNames.derive("com.example." + longName).length());
        assertThrows(IllegalArgumentException.class, () -> ServiceNames.PARSER.parse(longName));
    }
}
