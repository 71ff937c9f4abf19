package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the class file hook parses and matches: names an instrumentation's pre-filter accepts, from loaders and packages
 * not ignored.
 */
class CandidateFilterTest {

    private final ClassLoader application = new URLClassLoader(new URL[0], getClass().getClassLoader());
    private final CandidateFilter filter = new CandidateFilter(Arrays.<Instrumentation>asList(
            new NamedInstrumentation(nameContains("Servlet")), new NamedInstrumentation(named("org.h2.Driver"))));

    @Test
    void namesAcceptedByAPreFilterPass() {
        assertTrue(filter.isCandidate(application, "org/apache/catalina/servlets/DefaultServlet"));
        assertTrue(filter.isCandidate(application, "org/h2/Driver"));
        assertTrue(filter.isCandidate(application, "javax/servlet/http/HttpServlet"), "only javax.management is ignored");
    }

    @Test
    void namesNoPreFilterAcceptsDoNot() {
        assertFalse(filter.isCandidate(application, "org/h2/DriverX"));
        assertFalse(filter.isCandidate(application, "org/apache/catalina/core/StandardContext"));
    }

    @Test
    void ignoredPackagesAndLoadersDoNot() {
        assertFalse(filter.isCandidate(application, "java/lang/ServletLike"), "the JDK's packages");
        assertFalse(filter.isCandidate(application, "javax/management/ServletMBean"), "the JDK's javax.management");
        assertFalse(filter.isCandidate(application, "dev/apmagent/plugin/servlet/ServletHelper"), "the agent's own");
        assertFalse(filter.isCandidate(application, "com/example/App$$Lambda$12/0x0000000801234"), "generated");
        assertFalse(filter.isCandidate(null, "org/apache/catalina/servlets/DefaultServlet"), "the bootstrap loader");
    }

    @Test
    void hiddenClassesWithoutANameDoNot() {
        assertFalse(filter.isCandidate(application, null));
    }

    @Test
    void aPreFilterThatThrowsLetsTheClassThroughToTheMatchers() {
        CandidateFilter failing = new CandidateFilter(Collections.<Instrumentation>singletonList(
                new NamedInstrumentation(new ElementMatcher<TypeDescription>() {
                    @Override
                    public boolean matches(TypeDescription target) {
                        throw new IllegalStateException("broken pre-filter");
                    }
                })));
        assertTrue(failing.isCandidate(application, "com/example/Anything"));
    }

    private static final class NamedInstrumentation extends Instrumentation {
        private final ElementMatcher<? super TypeDescription> preFilter;

        NamedInstrumentation(ElementMatcher<? super TypeDescription> preFilter) {
            this.preFilter = preFilter;
        }

        @Override
        public String name() {
            return "named";
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
            return preFilter;
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeMatcher() {
            return preFilter;
        }

        @Override
        public List<AdviceBinding> advice() {
            return Collections.emptyList();
        }
    }
}
