package dev.apmagent.plugin.okhttp;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Collection;
import java.util.Collections;

import static dev.apmagent.plugin.ClassLoaderHasClass.hasClassNamed;

/**
 * What both OkHttp instrumentations share: the name users disable them by ({@code okhttp}, as the Elastic agent
 * names it, in its group {@code http-client}) and the class-loader marker, OkHttp's {@code Call} interface.
 */
abstract class OkHttpInstrumentation extends Instrumentation {

    @Override
    public final String name() {
        return OkHttpPlugin.NAME;
    }

    @Override
    public final Collection<String> groupNames() {
        return Collections.singletonList(OkHttpPlugin.GROUP);
    }

    @Override
    public final ElementMatcher<ClassLoader> classLoaderMatcher() {
        return hasClassNamed(RealCallInstrumentation.CALL_TYPE);
    }
}
