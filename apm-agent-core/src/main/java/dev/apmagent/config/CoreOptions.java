package dev.apmagent.config;

import dev.apmagent.log.LogLevel;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** The core options: identity of the service, where to report, sampling, pooling, logging and instrumentation switches. */
public final class CoreOptions implements OptionProvider {

    public static final ConfigOption<Boolean> ENABLED = ConfigOption.of("enabled", "Boolean", "true", Parsers.BOOLEAN,
            "When false the agent installs no instrumentation and starts no thread.");

    public static final ConfigOption<String> SERVICE_NAME = ConfigOption.of("service_name", "String", null, ServiceNames.PARSER,
            "Name of the service: letters, digits, spaces, '_' and '-' only. When absent it is derived from the main class or the jar file name (without version), with other characters replaced by '-'; the fallback is `unknown-java-service`.");

    public static final ConfigOption<String> SERVICE_VERSION = ConfigOption.of("service_version", "String", null, Parsers.STRING,
            "Version of the service (for example a release tag or commit id).");

    public static final ConfigOption<String> ENVIRONMENT = ConfigOption.of("environment", "String", null, Parsers.STRING,
            "Name of the environment the service runs in, such as production or staging.");

    public static final ConfigOption<String> HOSTNAME = ConfigOption.of("hostname", "String", null, Parsers.STRING,
            "Host name reported in the metadata; detected when absent.");

    public static final ConfigOption<String> SERVER_URL = ConfigOption.of("server_url", "URL", "http://127.0.0.1:8200", Parsers.HTTP_URL,
            "URL of the APM Server. Shorthand for a one-element server_urls.");

    public static final ConfigOption<List<String>> SERVER_URLS = ConfigOption.of("server_urls", "List of URLs", null, Parsers.HTTP_URL_LIST,
            "APM Server URLs to fail over between; takes precedence over server_url when set.");

    public static final ConfigOption<String> SECRET_TOKEN = ConfigOption.secret("secret_token", "String", null, Parsers.STRING,
            "Secret token sent as 'Authorization: Bearer <token>'. Never logged.");

    public static final ConfigOption<String> API_KEY = ConfigOption.secret("api_key", "String", null, Parsers.STRING,
            "API key sent as 'Authorization: ApiKey <key>'; wins over secret_token. Never logged.");

    public static final ConfigOption<Double> TRANSACTION_SAMPLE_RATE = ConfigOption.of("transaction_sample_rate", "Double (0..1)", "1.0",
            Parsers.doubleRange(0, 1),
            "Share of transactions that are sampled, rounded to 4 decimals. Unsampled transactions keep name, duration, result and outcome but no spans or context.");

    public static final ConfigOption<Integer> TRANSACTION_MAX_SPANS = ConfigOption.of("transaction_max_spans", "Integer", "500",
            Parsers.intRange(0, Integer.MAX_VALUE),
            "Spans recorded per transaction at most; further spans are counted in span_count.dropped.");

    public static final ConfigOption<Integer> STACK_TRACE_LIMIT = ConfigOption.of("stack_trace_limit", "Integer", "50",
            Parsers.intRange(0, 10_000),
            "Stack frames captured per error at most; 0 captures none.");

    public static final ConfigOption<LogLevel> LOG_LEVEL = ConfigOption.of("log_level", "Enum", "info",
            new ConfigOption.ValueParser<LogLevel>() {
                @Override
                public LogLevel parse(String raw) {
                    LogLevel level = LogLevel.fromName(raw);
                    if (level == null) {
                        throw new IllegalArgumentException("expected one of off, error, warn, info, debug, trace");
                    }
                    return level;
                }
            },
            "Level of the agent's own log: off, error, warn, info, debug or trace (warning, critical and all are accepted as warn, error and trace).");

    public static final ConfigOption<String> LOG_FILE = ConfigOption.of("log_file", "String", "System.out", Parsers.STRING,
            "Where the agent logs: System.out, System.err or a file path (appended to, created with its parent directories; `_AGENT_HOME_` stands for the agent jar's directory). If the file cannot be opened, one warning goes to System.err and the log goes to System.out.");

    public static final ConfigOption<List<String>> DISABLE_INSTRUMENTATIONS = ConfigOption.of("disable_instrumentations", "List", "",
            Parsers.LIST,
            "Instrumentation names (or group names such as jdbc) that are not installed.");

    public static final ConfigOption<List<String>> ENABLE_INSTRUMENTATIONS = ConfigOption.of("enable_instrumentations", "List", "",
            Parsers.LIST,
            "When not empty, only these instrumentation names (or groups) are installed.");

    public static final ConfigOption<Boolean> ENABLE_EXPERIMENTAL_INSTRUMENTATIONS = ConfigOption.of("enable_experimental_instrumentations",
            "Boolean", "false", Parsers.BOOLEAN,
            "Installs the instrumentations of the experimental group too (such as thread-start); disable_instrumentations still wins.");

    public static final ConfigOption<String> OBJECT_POOL = ConfigOption.of("object_pool", "Enum", "thread_local",
            Parsers.oneOf("thread_local", "queue", "none"),
            "How transactions, spans and errors are recycled: thread_local (a small per-thread cache in front of a shared queue), queue (one shared lock-free queue) or none (allocate each time).");

    public static final ConfigOption<Integer> MAX_QUEUE_SIZE = ConfigOption.of("max_queue_size", "Integer", "8192",
            Parsers.intRange(16, 1 << 20),
            "Capacity of the hand-off from application threads to the reporter (rounded up to a power of two). Events that find it full are dropped and counted."
                    + " The default holds about 200 ms of a busy service's events (40,000 a second), so a reporter thread that the"
                    + " scheduler keeps waiting behind the application's threads loses nothing; it costs 32 KB of references, and"
                    + " events only while they wait.");

    public static final ConfigOption<String> CONFIG_FILE = ConfigOption.of("config_file", "String", null, Parsers.STRING,
            "Path of a properties file with options (plain keys, such as `service_name=x`); `_AGENT_HOME_` stands for the agent jar's directory. When absent, `elasticapm.properties` beside the agent jar is read if it exists. Only agent arguments, system properties and environment variables can set it.");

    private static final List<ConfigOption<?>> ALL = Collections.unmodifiableList(Arrays.<ConfigOption<?>>asList(
            ENABLED, SERVICE_NAME, SERVICE_VERSION, ENVIRONMENT, HOSTNAME, SERVER_URL, SERVER_URLS, SECRET_TOKEN, API_KEY,
            TRANSACTION_SAMPLE_RATE, TRANSACTION_MAX_SPANS, STACK_TRACE_LIMIT, LOG_LEVEL, LOG_FILE,
            DISABLE_INSTRUMENTATIONS, ENABLE_INSTRUMENTATIONS, ENABLE_EXPERIMENTAL_INSTRUMENTATIONS, OBJECT_POOL, MAX_QUEUE_SIZE, CONFIG_FILE));

    @Override
    public String category() {
        return "Core";
    }

    @Override
    public List<ConfigOption<?>> options() {
        return ALL;
    }
}
