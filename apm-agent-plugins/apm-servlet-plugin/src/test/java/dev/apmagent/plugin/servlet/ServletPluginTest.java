package dev.apmagent.plugin.servlet;

import dev.apmagent.plugin.Instrumentation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The names users put in {@code disable_instrumentations} (docs/configuration.md, the README) stay what they are, each
 * instrumentation class is named after its instrumentation, and every advice it names by string exists, nested in it.
 */
class ServletPluginTest {

    @Test
    void instrumentationsKeepTheirNamesAndGroups() {
        List<String> described = new ArrayList<>();
        for (Instrumentation i : new ServletPlugin().instrumentations()) {
            described.add(i.getClass().getName().substring(i.getClass().getPackage().getName().length() + 1) + " " + i.name() + " " + i.groupNames());
        }
        assertThat(new ServletPlugin().name()).isEqualTo("servlet");
        assertThat(described).containsExactly(
                "JavaxServletInstrumentation$Service javax-servlet-service [servlet-api, javax-servlet]",
                "JavaxServletInstrumentation$DoFilter javax-servlet-filter [servlet-api, javax-servlet]",
                "JavaxServletInstrumentation$AsyncStart javax-servlet-async [servlet-api, servlet-api-async, javax-servlet]",
                "JakartaServletInstrumentation$Service jakarta-servlet-service [servlet-api, jakarta-servlet]",
                "JakartaServletInstrumentation$DoFilter jakarta-servlet-filter [servlet-api, jakarta-servlet]",
                "JakartaServletInstrumentation$AsyncStart jakarta-servlet-async [servlet-api, servlet-api-async, jakarta-servlet]");
    }

    @Test
    void adviceNamedByStringIsNestedInItsInstrumentation() throws ClassNotFoundException {
        List<String> advice = new ArrayList<>();
        for (Instrumentation i : new ServletPlugin().instrumentations()) {
            for (Instrumentation.AdviceBinding binding : i.advice()) {
                Class<?> type = Class.forName(binding.adviceClassName(), false, getClass().getClassLoader());
                assertThat(type.getEnclosingClass()).isEqualTo(i.getClass());
                advice.add(type.getSimpleName());
            }
        }
        assertThat(advice).containsExactly("ServletServiceAdvice", "FilterDoFilterAdvice", "AsyncContextStartAdvice",
                "ServletServiceAdvice", "FilterDoFilterAdvice", "AsyncContextStartAdvice");
    }
}
