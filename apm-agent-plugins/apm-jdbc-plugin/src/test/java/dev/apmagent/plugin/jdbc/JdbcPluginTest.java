package dev.apmagent.plugin.jdbc;

import dev.apmagent.instrument.InstrumentationSelection;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plugin's declaration: names users type, and the advice it names by string. */
class JdbcPluginTest {

    private static final Plugin plugin = new JdbcPlugin();

    /**
     * The names the documentation gave before the instrumentations were split keep selecting exactly what they did:
     * {@code jdbc-statement} the statements and prepare/close on connections, {@code jdbc-connection} the connect spans.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''              | ''              | jdbc-statement,jdbc-connection-prepare,jdbc-driver-connect,jdbc-data-source-get-connection",
            "''              | jdbc            | ''",
            "''              | jdbc-statement  | jdbc-driver-connect,jdbc-data-source-get-connection",
            "''              | jdbc-connection | jdbc-statement,jdbc-connection-prepare",
            "jdbc-statement  | ''              | jdbc-statement,jdbc-connection-prepare",
            "jdbc-connection | ''              | jdbc-driver-connect,jdbc-data-source-get-connection",
            "jdbc            | jdbc-connection | jdbc-statement,jdbc-connection-prepare"})
    void documentedNamesSelectWhatTheyAlwaysDid(String enabled, String disabled, String selected) {
        List<String> names = new ArrayList<>();
        for (Instrumentation i : new InstrumentationSelection(list(enabled), list(disabled)).select(List.of(plugin))) {
            names.add(i.name());
        }
        assertEquals(list(selected), names);
    }

    private static List<String> list(String csv) {
        return csv.isEmpty() ? Collections.<String>emptyList() : Arrays.asList(csv.split(","));
    }

    /** {@code StatementInstrumentation} is {@code jdbc-statement}; each advice class exists and has enter (and exit). */
    @org.junit.jupiter.api.Test
    void namesFollowTheClassesAndEveryAdviceResolves() throws Exception {
        for (Instrumentation instrumentation : plugin.instrumentations()) {
            String simpleName = instrumentation.getClass().getSimpleName().replace("Instrumentation", "");
            String kebab = simpleName.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase();
            assertEquals("jdbc-" + kebab, instrumentation.name());
            assertTrue(instrumentation.groupNames().contains("jdbc"), instrumentation + " is in group jdbc");
            for (Instrumentation.AdviceBinding binding : instrumentation.advice()) {
                Class<?> advice = Class.forName(binding.adviceClassName());
                assertEquals(instrumentation.getClass(), advice.getEnclosingClass());
                assertTrue(advice.getSimpleName().endsWith("Advice"), advice.getName());
                List<String> methods = new ArrayList<>();
                for (Method m : advice.getDeclaredMethods()) {
                    methods.add(m.getName());
                }
                assertTrue(methods.contains("enter"), advice + ": " + methods);
                assertTrue(methods.size() == 1 || methods.contains("exit"), advice + ": " + methods);
            }
        }
    }
}
