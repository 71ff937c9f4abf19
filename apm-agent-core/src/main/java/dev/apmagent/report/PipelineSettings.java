package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The reporter's configuration, read once from the {@link Config} snapshot. Fields are package-private and mutable so
 * tests can shorten intervals (back-off unit, idle parks) without inventing public options for them.
 */
final class PipelineSettings {

    private static final Logger log = AgentLog.get(PipelineSettings.class);
    static final long KB = 1024;
    static final long MB = KB * KB;
    static final long GB = KB * MB;
    /** The smallest max_buffer_size: one chunk of the byte ring. */
    static final long MIN_BUFFER_SIZE = ByteRing.CHUNK_SIZE;
    /** The largest max_buffer_size, whatever the heap. */
    static final long MAX_BUFFER_SIZE = GB;
    /**
     * max_buffer_size is capped at this fraction of the maximum heap. The buffer fills only while the APM Server is
     * slow or away, which is when the application is least able to give up memory; an eighth leaves the application
     * seven eighths of its heap through any outage, and is still twice the default (4mb) on a 64 MB heap, so the default
     * is never capped on a heap that can run an application server.
     */
    static final int HEAP_SHARE = 8;
    static final long MIN_EVENT_SIZE = KB;

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
        return from(config, Runtime.getRuntime().maxMemory());
    }

    /** {@code maxHeap}: {@link Runtime#maxMemory()}, {@code Long.MAX_VALUE} when the heap has no limit. */
    static PipelineSettings from(Config config, long maxHeap) {
        PipelineSettings s = new PipelineSettings();
        s.queueCapacity = config.get(CoreOptions.MAX_QUEUE_SIZE);
        s.bufferSize = bufferSize(config.get(ReporterOptions.MAX_BUFFER_SIZE), maxHeap);
        long maxEventSize = config.get(ReporterOptions.MAX_EVENT_SIZE);
        s.maxEventSize = (int) clamp(maxEventSize, MIN_EVENT_SIZE, s.bufferSize - ByteRing.HEADER_SIZE);
        if (s.maxEventSize != maxEventSize && config.isSet(ReporterOptions.MAX_EVENT_SIZE)) {
            // the default (300kb) silently follows a smaller buffer: nobody asked for it
            if (maxEventSize < MIN_EVENT_SIZE) {
                log.warn("max_event_size={} is below the smallest, {}: using {}", sizeText(maxEventSize),
                        sizeText(MIN_EVENT_SIZE), sizeText(s.maxEventSize));
            } else {
                log.warn("max_event_size={} is more than max_buffer_size ({}) holds: using {}", sizeText(maxEventSize),
                        sizeText(s.bufferSize), sizeText(s.maxEventSize));
            }
        }
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

    /**
     * The byte ring's bound for a requested max_buffer_size: at least {@link #MIN_BUFFER_SIZE}, at most
     * {@link #MAX_BUFFER_SIZE} and at most 1/{@value #HEAP_SHARE} of {@code maxHeap} (rounded down to whole chunks).
     * A value changed by any of these is warned about, once, naming the requested and the used value (and the heap,
     * when the heap decided).
     */
    static int bufferSize(long requested, long maxHeap) {
        if (requested < MIN_BUFFER_SIZE) {
            log.warn("max_buffer_size={} is below the smallest, {}: using {}", sizeText(requested),
                    sizeText(MIN_BUFFER_SIZE), sizeText(MIN_BUFFER_SIZE));
            return (int) MIN_BUFFER_SIZE;
        }
        long heapShare = maxHeap == Long.MAX_VALUE ? Long.MAX_VALUE
                : Math.max(MIN_BUFFER_SIZE, maxHeap / HEAP_SHARE / ByteRing.CHUNK_SIZE * ByteRing.CHUNK_SIZE);
        if (requested > heapShare && heapShare < MAX_BUFFER_SIZE) {
            log.warn("max_buffer_size={} is more than 1/{} of the maximum heap ({}): using {}", sizeText(requested),
                    HEAP_SHARE, heapText(maxHeap), sizeText(heapShare));
            return (int) heapShare;
        }
        if (requested > MAX_BUFFER_SIZE) {
            log.warn("max_buffer_size={} is above the largest, {}: using {}", sizeText(requested),
                    sizeText(MAX_BUFFER_SIZE), sizeText(MAX_BUFFER_SIZE));
            return (int) MAX_BUFFER_SIZE;
        }
        return (int) requested;
    }

    /** A size as the option is written: 1gb, 8mb, 8128kb, or a number of bytes. */
    static String sizeText(long bytes) {
        if (bytes == 0) {
            return "0";
        } else if (bytes % GB == 0) {
            return bytes / GB + "gb";
        } else if (bytes % MB == 0) {
            return bytes / MB + "mb";
        } else if (bytes % KB == 0) {
            return bytes / KB + "kb";
        }
        return Long.toString(bytes);
    }

    /** The heap in whole units when it is one (64mb, 4gb), else in MB to a tenth (61.9mb). */
    private static String heapText(long bytes) {
        if (bytes % MB == 0) {
            return sizeText(bytes);
        }
        long tenths = bytes * 10 / MB;
        return tenths / 10 + "." + tenths % 10 + "mb";
    }

    private static long clamp(long v, long min, long max) {
        return Math.max(min, Math.min(max, v));
    }
}
