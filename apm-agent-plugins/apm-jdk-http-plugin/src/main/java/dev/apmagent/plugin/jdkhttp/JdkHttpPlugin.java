package dev.apmagent.plugin.jdkhttp;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.Arrays;
import java.util.List;

/**
 * Outgoing HTTP requests of the JDK's own clients, {@code HttpURLConnection} and {@code java.net.http.HttpClient}: an
 * exit span per request and the trace context in its headers. See the module's README.
 */
public final class JdkHttpPlugin implements Plugin {

    static final String NAME = "jdk-http";
    /** The group name every HTTP client instrumentation shares, as in the Elastic agent. */
    static final String GROUP = "http-client";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Instrumentation> instrumentations() {
        return Arrays.<Instrumentation>asList(new UrlConnectionInstrumentation(), new HttpClientInstrumentation());
    }
}
