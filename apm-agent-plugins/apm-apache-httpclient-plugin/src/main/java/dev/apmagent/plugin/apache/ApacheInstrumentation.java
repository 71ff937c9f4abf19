package dev.apmagent.plugin.apache;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collection;

import static dev.apmagent.plugin.ClassLoaderHasClass.hasClassNamed;
import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * What every instrumentation of the plugin shares: it advises the classes of the library's own packages
 * ({@code namePrefix}) that implement or extend one library type, where the loader sees a marker class; and it answers
 * to the group names the Elastic agent gives its Apache HttpClient instrumentations.
 */
abstract class ApacheInstrumentation extends Instrumentation {

    private final String name;
    private final String loaderMarker;
    private final String namePrefix;
    private final String superType;

    ApacheInstrumentation(String name, String loaderMarker, String namePrefix, String superType) {
        this.name = name;
        this.loaderMarker = loaderMarker;
        this.namePrefix = namePrefix;
        this.superType = superType;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public Collection<String> groupNames() {
        return Arrays.asList("http-client", ApacheHttpClientPlugin.NAME);
    }

    @Override
    public final ElementMatcher<ClassLoader> classLoaderMatcher() {
        return hasClassNamed(loaderMarker);
    }

    @Override
    public final ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return nameStartsWith(namePrefix);
    }

    @Override
    public final ElementMatcher<? super TypeDescription> typeMatcher() {
        return not(isInterface()).and(hasSuperType(named(superType)));
    }
}
