package dev.apmagent.plugin.okhttp;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.Arrays;
import java.util.List;

/**
 * OkHttp 3.x, 4.x and 5.x ({@code okhttp3}): an exit span per call made while a transaction or span is active, with
 * W3C trace context in the request's headers; {@code execute} and {@code enqueue}. See the module's README.
 */
public final class OkHttpPlugin implements Plugin {

    static final String NAME = "okhttp";
    /** The group every HTTP client's instrumentations share, as the Elastic agent names it. */
    static final String GROUP = "http-client";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Instrumentation> instrumentations() {
        return Arrays.<Instrumentation>asList(new RealCallInstrumentation(), new AsyncCallInstrumentation());
    }
}
