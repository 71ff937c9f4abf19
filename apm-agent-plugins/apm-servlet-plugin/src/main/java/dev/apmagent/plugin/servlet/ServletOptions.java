package dev.apmagent.plugin.servlet;

import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.OptionProvider;
import dev.apmagent.config.Parsers;
import dev.apmagent.config.WildcardMatcherList;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Options of incoming HTTP requests, named as the Elastic agent names them. */
public final class ServletOptions implements OptionProvider {

    public static final ConfigOption<Boolean> CAPTURE_HEADERS = ConfigOption.of("capture_headers", "Boolean", "true", Parsers.BOOLEAN,
            "Capture request and response headers and cookies (values of sensitive names are redacted). Turning it off removes the agent's only per-request allocations.");

    public static final ConfigOption<Boolean> USE_PATH_AS_TRANSACTION_NAME = ConfigOption.of("use_path_as_transaction_name", "Boolean", "false",
            Parsers.BOOLEAN,
            "Name transactions 'GET /path' instead of 'MyServlet#doGet'; use url_groups to keep ids out of names.");

    public static final ConfigOption<WildcardMatcherList> URL_GROUPS = ConfigOption.of("url_groups", "List of wildcards", "",
            Parsers.WILDCARD_LIST,
            "With use_path_as_transaction_name, request paths matching one of these patterns are named by the pattern (e.g. /users/*).");

    public static final ConfigOption<WildcardMatcherList> TRANSACTION_IGNORE_URLS = ConfigOption.of("transaction_ignore_urls",
            "List of wildcards",
            "/VAADIN/*, /heartbeat*, /favicon.ico, *.js, *.css, *.jpg, *.jpeg, *.png, *.gif, *.webp, *.svg, *.woff, *.woff2",
            Parsers.WILDCARD_LIST,
            "Requests whose path matches one of these patterns are not traced at all.");

    public static final ConfigOption<WildcardMatcherList> SANITIZE_FIELD_NAMES = ConfigOption.of("sanitize_field_names", "List of wildcards",
            "password, passwd, pwd, secret, *key, *token*, *session*, *credit*, *card*, *auth*, set-cookie, *principal*",
            Parsers.WILDCARD_LIST,
            "Headers, cookies and form fields whose names match are captured with the value [REDACTED].");

    private static final List<ConfigOption<?>> ALL = Collections.unmodifiableList(Arrays.<ConfigOption<?>>asList(
            CAPTURE_HEADERS, USE_PATH_AS_TRANSACTION_NAME, URL_GROUPS, TRANSACTION_IGNORE_URLS, SANITIZE_FIELD_NAMES));

    @Override
    public String category() {
        return "HTTP";
    }

    @Override
    public List<ConfigOption<?>> options() {
        return ALL;
    }
}
