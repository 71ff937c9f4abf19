package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The reporter's configuration, read once from the {@link Config} snapshot. Fields are package-private and mutable so
 * tests can shorten intervals (back-off unit, idle parks) without inventing public options for them.
 */
final class PipelineSettings {

    int queueCapacity;
    int bufferSize;
    int maxEventSize;
    long requestTimeMillis;
    long requestSizeBytes;
    int serverTimeoutMillis;
    boolean verifyServerCert;
    String compression;
    String outputFile;
    long metricsIntervalMillis;
    long flushTimeoutMillis;
    long statsLogIntervalMillis;
    boolean includeProcessArgs;
    List<String> serverUrls;
    String secretToken;
    String apiKey;
    /** One unit of the back-off curve (1 s in production). */
    long backoffUnitMillis = 1000;
    /** Longest the reporter thread sleeps when idle, so timers and shutdown are noticed. */
    long maxIdleParkMillis = 1000;
    /** How often the file output is flushed. */
    long fileFlushIntervalMillis = 1000;
    /** Log lines per minute about the same kind of server or output error; 0 for the agent log's own limit. */
    int errorLinesPerMinute = 1;

    static PipelineSettings from(Config config) {
        PipelineSettings s = new PipelineSettings();
        s.queueCapacity = config.get(CoreOptions.MAX_QUEUE_SIZE);
        s.bufferSize = (int) clamp(config.get(ReporterOptions.MAX_BUFFER_SIZE), 64 * 1024, 1L << 30);
        s.maxEventSize = (int) clamp(config.get(ReporterOptions.MAX_EVENT_SIZE), 1024, s.bufferSize - ByteRing.HEADER_SIZE);
        s.requestTimeMillis = Math.max(1, config.get(ReporterOptions.API_REQUEST_TIME));
        s.requestSizeBytes = Math.max(1024, config.get(ReporterOptions.API_REQUEST_SIZE));
        s.serverTimeoutMillis = (int) clamp(config.get(ReporterOptions.SERVER_TIMEOUT), 0, Integer.MAX_VALUE);
        s.verifyServerCert = config.get(ReporterOptions.VERIFY_SERVER_CERT);
        s.compression = config.get(ReporterOptions.COMPRESS_REQUESTS);
        s.outputFile = config.get(ReporterOptions.OUTPUT_FILE);
        s.metricsIntervalMillis = config.get(ReporterOptions.METRICS_INTERVAL);
        s.flushTimeoutMillis = config.get(ReporterOptions.FLUSH_TIMEOUT);
        s.statsLogIntervalMillis = config.get(ReporterOptions.REPORTER_STATS_LOG_INTERVAL);
        s.includeProcessArgs = config.get(ReporterOptions.INCLUDE_PROCESS_ARGS);
        List<String> urls = config.get(CoreOptions.SERVER_URLS);
        if (urls == null || urls.isEmpty()) {
            String one = config.get(CoreOptions.SERVER_URL);
            urls = one == null ? Collections.<String>emptyList() : Collections.singletonList(one);
        }
        s.serverUrls = Collections.unmodifiableList(new ArrayList<String>(urls));
        s.secretToken = config.get(CoreOptions.SECRET_TOKEN);
        s.apiKey = config.get(CoreOptions.API_KEY);
        return s;
    }

    private static long clamp(long v, long min, long max) {
        return Math.max(min, Math.min(max, v));
    }
}
