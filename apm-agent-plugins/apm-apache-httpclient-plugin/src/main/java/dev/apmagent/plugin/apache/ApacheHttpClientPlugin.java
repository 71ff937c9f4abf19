package dev.apmagent.plugin.apache;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.Arrays;
import java.util.List;

/**
 * Apache HttpClient: exit spans and W3C trace context for outgoing requests of HttpClient 4.3-4.5 (classic),
 * HttpAsyncClient 4.1 and HttpClient 5 (classic and async). No options of its own: the kit's
 * ({@code use_elastic_traceparent_header}, {@code sanitize_field_names}, {@code transaction_max_spans}) apply.
 */
public final class ApacheHttpClientPlugin implements Plugin {

    static final String NAME = "apache-httpclient";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Instrumentation> instrumentations() {
        return Arrays.<Instrumentation>asList(
                new Apache4ClassicInstrumentation(),
                new Apache4AsyncInstrumentation(),
                new Apache4AsyncInstrumentation.ResponseCompletion(),
                new Apache5ClassicInstrumentation(),
                new Apache5AsyncInstrumentation(),
                new Apache5AsyncInstrumentation.ExchangeCompletion());
    }
}
