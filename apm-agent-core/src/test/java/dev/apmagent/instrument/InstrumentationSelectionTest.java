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

    /** The experimental group is off unless enable_experimental_instrumentations is true; disabling still wins. */
    @ParameterizedTest(name = "experimental={0} enable=[{1}] disable=[{2}] -> {3}")
    @CsvSource(delimiter = '|', value = {
            "false |                 |                  | executor",
            "false | thread-start    |                  | ''",
            "true  |                 |                  | executor,thread-start",
            "true  |                 | concurrent       | ''",
            "true  |                 | thread-start     | executor",
            "true  | thread-start    |                  | thread-start",
    })
    void experimentalInstrumentationsAreOptIn(boolean experimental, String enable, String disable, String expected) {
        InstrumentationSelection selection = new InstrumentationSelection(list(enable), list(disable), experimental);
        List<Instrumentation> selected = selection.select(Collections.singletonList(
                plugin("concurrent", named("executor", "concurrent"), named("thread-start", "concurrent", Instrumentation.EXPERIMENTAL))));
        StringBuilder names = new StringBuilder();
        for (Instrumentation i : selected) {
            names.append(names.length() == 0 ? "" : ",").append(i.name());
        }
        assertEquals(expected, names.toString());
    }

    /** Names that match nothing are reported with the valid ones, and so is a selection that installs nothing. */
    @ParameterizedTest(name = "enable=[{0}] disable=[{1}]")
    @CsvSource(delimiter = '|', value = {
            "                 |                  | ''",
            "jdbc,Servlet     | db               | ''",
            "servlets,jbdc    |                  | enable_instrumentations names instrumentations that do not exist: servlets,jbdc (ignored);"
                    + " valid names (instrumentations, groups and plugins) are db,jdbc,jdbc-connection,jdbc-statement,servlet,servlet-service"
                    + "~No instrumentation is installed: enable_instrumentations=servlets,jbdc and disable_instrumentations=(empty)"
                    + " leave none of 6 names selected, so the agent traces nothing",
            "servlet          | jdbc-statment    | disable_instrumentations names an instrumentation that does not exist: jdbc-statment (ignored);"
                    + " valid names (instrumentations, groups and plugins) are db,jdbc,jdbc-connection,jdbc-statement,servlet,servlet-service",
            "                 | jdbc,servlet     | No instrumentation is installed: enable_instrumentations=(empty) and"
                    + " disable_instrumentations=jdbc,servlet leave none of 6 names selected, so the agent traces nothing",
    })
    void unknownNamesAndAnEmptySelectionAreReported(String enable, String disable, String expected) {
        InstrumentationSelection selection = new InstrumentationSelection(list(enable), list(disable));
        List<String> warnings = selection.warnings(Arrays.asList(
                plugin("jdbc", named("jdbc-statement", "db"), named("jdbc-connection", "db")),
                plugin("servlet", named("servlet-service"))));
        assertEquals(expected, String.join("~", warnings));
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
