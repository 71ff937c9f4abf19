package dev.apmagent.report;

import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.OptionProvider;
import dev.apmagent.config.Parsers;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Options of the reporting pipeline: buffering, request shape, transport security, file output and metrics. */
public final class ReporterOptions implements OptionProvider {

    public static final ConfigOption<Long> MAX_BUFFER_SIZE = ConfigOption.of("max_buffer_size", "Size", "4mb", Parsers.BYTES,
            "Most memory for serialized events waiting to be sent: between 64kb and 1gb, and at most 1/8 of the maximum heap"
                    + " (a larger value is used as that eighth, with a warning naming the heap). Memory is taken in 64 KB chunks"
                    + " as events wait and given back once they are sent, so a large value costs memory only while the APM"
                    + " Server is slow or away. Once the bound is reached the oldest events are evicted to make room for new ones"
                    + " and counted, so memory stays bounded however long the outage lasts.");

    public static final ConfigOption<Long> MAX_EVENT_SIZE = ConfigOption.of("max_event_size", "Size", "300kb", Parsers.BYTES,
            "Largest serialized event that is kept; larger ones are dropped and counted. The APM Server rejects events above"
                    + " its own max_event_size (300kb by default), so there is no point sending them.");

    public static final ConfigOption<Long> API_REQUEST_TIME = ConfigOption.of("api_request_time", "Duration (at least 1s)", "10s",
            Parsers.durationAtLeast("s", 1000, false),
            "Longest time one streaming request to the APM Server stays open; at least 1s (a smaller value gives a warning"
                    + " and the default), so that an idle application cannot make the agent send a request every few"
                    + " milliseconds. Keep it below the server's read_timeout (30s by default). Events are buffered in between,"
                    + " so a longer time means fewer requests, not more delay in the agent.");

    public static final ConfigOption<Long> API_REQUEST_SIZE = ConfigOption.of("api_request_size", "Size", "768kb", Parsers.BYTES,
            "Compressed bytes after which a streaming request is completed and a new one started.");

    public static final ConfigOption<Long> SERVER_TIMEOUT = ConfigOption.of("server_timeout", "Duration", "5s",
            Parsers.durationMillis("s"),
            "Time allowed to connect to the APM Server and to wait for each read of its reply; 0 means no timeout (not"
                    + " recommended). A request that makes no progress for this long is aborted and retried after a back-off.");

    public static final ConfigOption<Boolean> VERIFY_SERVER_CERT = ConfigOption.of("verify_server_cert", "Boolean", "true",
            Parsers.BOOLEAN,
            "Whether the APM Server's TLS certificate and host name are verified. false accepts any certificate for any host:"
                    + " use it only for tests with self-signed certificates.");

    public static final ConfigOption<String> COMPRESS_REQUESTS = ConfigOption.of("compress_requests", "Enum", "auto",
            Parsers.oneOf("auto", "true", "false"),
            "Whether request bodies are zlib-compressed (Content-Encoding: deflate, fastest level): true, false, or auto"
                    + " (compress unless the server URL is a loopback address, where compression only costs CPU).");

    public static final ConfigOption<String> OUTPUT_FILE = ConfigOption.of("output_file", "String", null, Parsers.STRING,
            "When set, events are written as NDJSON (uncompressed, metadata line first) to this file instead of being sent"
                    + " to an APM Server. The file is truncated at start, flushed about once a second and on shutdown.");

    public static final ConfigOption<Long> METRICS_INTERVAL = ConfigOption.of("metrics_interval", "Duration (0 or at least 1s)", "30s",
            Parsers.durationAtLeast("s", 1000, true),
            "How often JVM, system and agent health metrics are collected and reported; 0 disables metrics. Other values"
                    + " below 1s give a warning and the default.");

    public static final ConfigOption<Long> FLUSH_TIMEOUT = ConfigOption.of("flush_timeout", "Duration", "5s",
            Parsers.durationMillis("s"),
            "At JVM shutdown, how long the agent tries to send what it still holds before it stops its threads.");

    public static final ConfigOption<Long> REPORTER_STATS_LOG_INTERVAL = ConfigOption.of("reporter_stats_log_interval",
            "Duration (0 or at least 1s)", "60s", Parsers.durationAtLeast("s", 1000, true),
            "How often the reporter's counters (produced, delivered, dropped, evicted, buffered, requests) are logged at"
                    + " debug level; 0 disables, other values below 1s give a warning and the default. The line is exempt from"
                    + " the log's rate limit (this interval is its limit).");

    public static final ConfigOption<Boolean> INCLUDE_PROCESS_ARGS = ConfigOption.of("include_process_args", "Boolean", "false",
            Parsers.BOOLEAN,
            "Whether the JVM's arguments are sent as process.argv in the metadata. The values of arguments named by"
                    + " sanitize_field_names or a secret option, and credentials in URLs, are sent as [REDACTED] (see Process"
                    + " arguments above); off by default all the same, because arguments may carry secrets under other names.");

    private static final List<ConfigOption<?>> ALL = Collections.unmodifiableList(Arrays.<ConfigOption<?>>asList(
            MAX_BUFFER_SIZE, MAX_EVENT_SIZE, API_REQUEST_TIME, API_REQUEST_SIZE, SERVER_TIMEOUT, VERIFY_SERVER_CERT,
            COMPRESS_REQUESTS, OUTPUT_FILE, METRICS_INTERVAL, FLUSH_TIMEOUT, REPORTER_STATS_LOG_INTERVAL, INCLUDE_PROCESS_ARGS));

    @Override
    public String category() {
        return "Reporter";
    }

    @Override
    public List<ConfigOption<?>> options() {
        return ALL;
    }
}
