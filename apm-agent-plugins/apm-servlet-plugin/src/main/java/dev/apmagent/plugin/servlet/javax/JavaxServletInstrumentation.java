package dev.apmagent.plugin.servlet.javax;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.LibraryHelper;
import dev.apmagent.plugin.servlet.ServletAdapter;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import static dev.apmagent.plugin.ClassLoaderHasClass.hasClassNamed;
import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * What the instrumentations of the {@code javax} servlet API ({@code Servlet.service}, {@code Filter.doFilter},
 * {@code AsyncContext.start}) share: their groups, the class-loader marker, the way they match types, and the adapter
 * their advice reaches. The build generates the {@code jakarta} twin of this package by replacing the namespace (see
 * this module's pom), so both namespaces are traced by the same code.
 */
public abstract class JavaxServletInstrumentation extends Instrumentation {

    /** The adapter over the servlet API as the instrumented class's loader sees it. */
    public static final LibraryHelper<ServletAdapter> adapters = new LibraryHelper<ServletAdapter>(ServletAdapter.class,
            "dev.apmagent.plugin.servlet.javax.helper.JavaxServletAdapter", "dev.apmagent.plugin.servlet.javax.helper.");

    static final String API = "javax.servlet.";

    private final String name;
    private final ElementMatcher<? super TypeDescription> preFilter;
    private final ElementMatcher<? super TypeDescription> implementations;

    /**
     * @param name         the instrumentation's name
     * @param nameFragment what the name of a class of interest contains (the only test every loaded class is put to)
     * @param apiType      the API type whose implementations are instrumented, without the package
     */
    JavaxServletInstrumentation(String name, String nameFragment, String apiType) {
        this.name = name;
        this.preFilter = nameContains(nameFragment);
        this.implementations = not(isInterface()).and(hasSuperType(named(API + apiType)));
    }

    public static List<Instrumentation> all() {
        return Arrays.<Instrumentation>asList(new JavaxServletServiceInstrumentation(), new JavaxServletFilterInstrumentation(),
                new JavaxServletAsyncInstrumentation());
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("servlet-api", "javax-servlet");
    }

    @Override
    public final ElementMatcher<ClassLoader> classLoaderMatcher() {
        return hasClassNamed(API + "AsyncContext"); // Servlet 3.0 and later
    }

    @Override
    public final ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return preFilter;
    }

    @Override
    public final ElementMatcher<? super TypeDescription> typeMatcher() {
        return implementations;
    }
}
