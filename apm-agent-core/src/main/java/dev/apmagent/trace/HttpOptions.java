package dev.apmagent.trace;

import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.OptionProvider;
import dev.apmagent.config.Parsers;
import dev.apmagent.config.WildcardMatcherList;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The options of the HTTP part of the event model, which every plugin that records a request or a URL gets without
 * declaring them: {@code sanitize_field_names}, applied by {@link UrlSanitizer} to every URL and by the plugins to
 * headers, cookies and form fields; and {@code use_elastic_traceparent_header}, read by every HTTP client plugin through
 * the kit.
 */
public final class HttpOptions implements OptionProvider {

    public static final ConfigOption<WildcardMatcherList> SANITIZE_FIELD_NAMES = ConfigOption.of("sanitize_field_names", "List of wildcards",
            "password, passwd, pwd, secret, *key, *token*, *session*, *credit*, *card*, *auth*, set-cookie, *principal*",
            Parsers.WILDCARD_LIST,
            "Headers, cookies, form fields, query parameters and path parameters (`;name=value`) whose names match are captured"
                    + " with the value [REDACTED], in every URL the agent records (`url.full`, `url.search`, `url.pathname`,"
                    + " `http.url`); the names are kept. A query or path parameter's name is matched after decoding `+` and"
                    + " percent-escapes of ASCII characters (`pass%77ord` is `password`). A name without `=` has no value and"
                    + " is kept; an empty value is redacted too. The user-info of a URL (`user:pass@`) is always redacted.");

    public static final ConfigOption<Boolean> USE_ELASTIC_TRACEPARENT_HEADER = ConfigOption.of("use_elastic_traceparent_header",
            "Boolean", "true", Parsers.BOOLEAN,
            "Whether outgoing HTTP requests carry the trace context in the header `elastic-apm-traceparent` too, besides the"
                    + " W3C `traceparent` and `tracestate` they always carry, for services whose Elastic agents predate W3C trace"
                    + " context (Java agent before 1.14). Incoming requests are continued from either header whatever this says.");

    private static final List<ConfigOption<?>> ALL = Collections.unmodifiableList(Arrays.<ConfigOption<?>>asList(
            SANITIZE_FIELD_NAMES, USE_ELASTIC_TRACEPARENT_HEADER));

    @Override
    public String category() {
        return "HTTP";
    }

    @Override
    public List<ConfigOption<?>> options() {
        return ALL;
    }
}
