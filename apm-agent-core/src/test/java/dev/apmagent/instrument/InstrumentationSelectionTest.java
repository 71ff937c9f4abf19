package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class InstrumentationSelectionTest {

    @ParameterizedTest(name = "enable=[{0}] disable=[{1}] -> {2}")
    @CsvSource(delimiter = '|', value = {
            "                     |                        | jdbc-statement,jdbc-connection,servlet-service",
            "                     | jdbc                   | servlet-service",
            "                     | JDBC-Connection        | jdbc-statement,servlet-service",
            "                     | db                     | servlet-service",
            "servlet              |                        | servlet-service",
            "jdbc                 | jdbc-connection        | jdbc-statement",
            "jdbc-statement       | jdbc                   | ''",
            "unknown-name         |                        | ''",
    })
    void selectsByNameGroupOrPlugin(String enable, String disable, String expected) {
        InstrumentationSelection selection = new InstrumentationSelection(list(enable), list(disable));
        List<Instrumentation> selected = selection.select(Arrays.asList(
                plugin("jdbc", named("jdbc-statement", "db"), named("jdbc-connection", "db")),
                plugin("servlet", named("servlet-service"))));
        StringBuilder names = new StringBuilder();
        for (Instrumentation i : selected) {
            names.append(names.length() == 0 ? "" : ",").append(i.name());
        }
        assertEquals(expected, names.toString());
    }

    private static List<String> list(String csv) {
        return csv == null || csv.isEmpty() ? Collections.<String>emptyList() : Arrays.asList(csv.split(","));
    }

    private static Plugin plugin(String name, Instrumentation... instrumentations) {
        return new Plugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<Instrumentation> instrumentations() {
                return Arrays.asList(instrumentations);
            }
        };
    }

    private static Instrumentation named(String name, String... groups) {
        return new Instrumentation() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Collection<String> groupNames() {
                return Arrays.asList(groups);
            }

            @Override
            public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
                return ElementMatchers.none();
            }

            @Override
            public ElementMatcher<? super TypeDescription> typeMatcher() {
                return ElementMatchers.none();
            }

            @Override
            public List<AdviceBinding> advice() {
                return AdviceBinding.single(ElementMatchers.none(), "none");
            }
        };
    }
}
