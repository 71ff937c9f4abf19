package dev.apmagent.plugin.servlet;

import dev.apmagent.config.Config;
import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.OptionProvider;
import dev.apmagent.config.Parsers;
import dev.apmagent.config.WildcardMatcherList;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import dev.apmagent.plugin.PluginSettings;
import dev.apmagent.plugin.servlet.jakarta.JakartaServletInstrumentation;
import dev.apmagent.plugin.servlet.javax.JavaxServletInstrumentation;
import dev.apmagent.trace.HttpOptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A transaction per incoming HTTP request, for the javax and the jakarta servlet APIs: the plugin (its name disables
 * all of it), its options, named as the Elastic agent names them, and the snapshot of them that {@link ServletHelper}
 * reads.
 */
public final class ServletPlugin implements Plugin, OptionProvider, PluginSettings.Reader<ServletPlugin.Settings> {

    static final String NAME = "servlet";

    public static final ConfigOption<Boolean> CAPTURE_HEADERS = ConfigOption.of("capture_headers", "Boolean", "true", Parsers.BOOLEAN,
            "Capture request and response headers and cookies (values of sensitive names are redacted). On Tomcat they are copied from Tomcat's own buffers and cost the request's thread no allocation; on other containers the servlet API builds a String per name and value, which turning this off saves.");

    public static final ConfigOption<Boolean> USE_PATH_AS_TRANSACTION_NAME = ConfigOption.of("use_path_as_transaction_name", "Boolean", "false",
            Parsers.BOOLEAN,
            "Name transactions 'GET /path' instead of 'MyServlet#doGet'; use url_groups to keep ids out of names. Path parameters"
                    + " (`;jsessionid=...`) are left out of names, and a non-standard method is named OTHER, as in 'OTHER /path' and"
                    + " 'MyServlet#doOther'.");

    public static final ConfigOption<WildcardMatcherList> URL_GROUPS = ConfigOption.of("url_groups", "List of wildcards", "",
            Parsers.WILDCARD_LIST,
            "With use_path_as_transaction_name, request paths matching one of these patterns are named by the pattern (e.g. /users/*).");

    public static final ConfigOption<WildcardMatcherList> TRANSACTION_IGNORE_URLS = ConfigOption.of("transaction_ignore_urls",
            "List of wildcards",
            "/VAADIN/*, /heartbeat*, /favicon.ico, *.js, *.css, *.jpg, *.jpeg, *.png, *.gif, *.webp, *.svg, *.woff, *.woff2",
            Parsers.WILDCARD_LIST,
            "Requests whose path matches one of these patterns are not traced at all.");

    static final PluginSettings<Settings> settings = new PluginSettings<Settings>(new ServletPlugin());

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Instrumentation> instrumentations() {
        List<Instrumentation> all = new ArrayList<Instrumentation>(JavaxServletInstrumentation.all());
        all.addAll(JakartaServletInstrumentation.all());
        return Collections.unmodifiableList(all);
    }

    @Override
    public List<ConfigOption<?>> options() {
        return Collections.unmodifiableList(Arrays.<ConfigOption<?>>asList(
                CAPTURE_HEADERS, USE_PATH_AS_TRANSACTION_NAME, URL_GROUPS, TRANSACTION_IGNORE_URLS));
    }

    /** The snapshot of the options, made once per configuration. */
    @Override
    public Settings read(Config config) {
        return new Settings(config);
    }

    @Override
    public String category() {
        return "HTTP";
    }

    /** The options as the helper uses them. */
    static final class Settings {
        final boolean captureHeaders;
        final boolean usePathAsName;
        final WildcardMatcherList urlGroups;
        final WildcardMatcherList ignoreUrls;
        final FieldNames sanitizer;

        Settings(Config config) {
            this.captureHeaders = config.get(CAPTURE_HEADERS);
            this.usePathAsName = config.get(USE_PATH_AS_TRANSACTION_NAME);
            this.urlGroups = config.get(URL_GROUPS);
            this.ignoreUrls = config.get(TRANSACTION_IGNORE_URLS);
            // header and cookie names repeat from request to request: remember each, with its decision
            this.sanitizer = new FieldNames(config.get(HttpOptions.SANITIZE_FIELD_NAMES)); // headers and cookies; URLs: trace.Url
        }
    }
}
