package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.metrics.MetricSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The path from an application thread to the APM Server, independent of the event model:
 * <pre>
 * application threads --offer--> HandoffRing --"apm-reporter": serialize--> ByteRing --"apm-sender": zlib, HTTP--> APM Server
 * </pre>
 * Application threads only run {@link #offer}: a counter increment and at most two CAS attempts, never a lock, park
 * or I/O. The reporter thread drains the hand-off in batches, serializes each event into a reusable buffer, appends
 * it to the byte ring (evicting the oldest entries when full), releases the event, collects metrics when due and
 * watches the sender's I/O deadlines. It never does I/O itself, so a slow or absent server cannot back up the
 * hand-off. The sender thread owns all network (or file) I/O and the back-off.
 */
final class ReportingPipeline {

    private static final Logger log = AgentLog.get(ReportingPipeline.class);
    /** The counters' line: reporter_stats_log_interval (at least 1 s) is its rate limit, not the log's 20 a minute. */
    private static final Logger statsLog = log.withoutRateLimit();
    private static final int BATCH = 256;
    /** How often the byte ring gives back the chunks it no longer needs (the reporter wakes at least once a second). */
    private static final long TRIM_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    final PipelineSettings settings;
    final ReporterStats stats;
    final HandoffRing<Object> handoff;
    final ByteRing ring;
    final Sender sender;
    private final EventCodec codec;
    /** Bytes buffered in the ring that make the reporter wake a waiting sender. */
    private final int senderWakeBytes;
    private final JsonHelper json = new JsonHelper();
    private final JsonHelper metricJson = new JsonHelper(4096);
    private final MetricSetSerializer metricSerializer;
    private final List<MetricSource> metricSources = new ArrayList<MetricSource>();
    /** For the problems that repeat while they last (a server that is down, a file that cannot be written). */
    private final Logger errorLog;
    private final Thread reporterThread;
    private final Thread senderThread;
    private volatile boolean stopRequested;
    private volatile boolean closed;
    private volatile long flushRequested;
    private volatile boolean started;
    /** Smallest and largest hand-off fill seen since the last health metricset (reporter thread). */
    private int queueMin = Integer.MAX_VALUE;
    private int queueMax;

    ReportingPipeline(PipelineSettings settings, EventCodec codec, Sender.MetadataSource metadata, String agentVersion,
                      String serviceName) {
        this.settings = settings;
        this.codec = codec;
        this.handoff = new HandoffRing<Object>(settings.queueCapacity);
        this.stats = new ReporterStats(new ReporterStats.BufferProbe() {
            @Override
            public long buffered() {
                return bufferedEvents();
            }

            @Override
            public long notYetTaken() {
                return handoff.size();
            }
        });
        this.ring = new ByteRing(settings.bufferSize, stats);
        // a small buffer (max_buffer_size is 64 KB at the least) must not fill up while the sender waits for a chunk
        this.senderWakeBytes = Math.min(Sender.WAKE_BYTES, settings.bufferSize / 8);
        this.sender = settings.outputFile != null && !settings.outputFile.isEmpty()
                ? new FileSender(ring, stats, settings, metadata)
                : new HttpSender(ring, stats, settings, metadata, agentVersion, serviceName);
        this.errorLog = log.limitedTo(settings.errorLinesPerMinute);
        this.metricSerializer = new MetricSetSerializer(metricJson, new MetricSetSerializer.LineConsumer() {
            @Override
            public void metricsetLine(JsonHelper line) {
                stats.produced(EventTypes.METRICSET);
                append(EventTypes.METRICSET, line);
            }
        });
        this.reporterThread = new Thread(new Runnable() {
            @Override
            public void run() {
                reporterLoop();
            }
        }, "apm-reporter");
        this.senderThread = new Thread(sender, "apm-sender");
        for (Thread t : new Thread[] {reporterThread, senderThread}) {
            t.setDaemon(true);
            // never pin the class loader of whichever application thread happened to build the reporter
            t.setContextClassLoader(ReportingPipeline.class.getClassLoader());
        }
    }

    /** Adds a metric source; call before {@link #start()}. */
    void addMetricSource(MetricSource source) {
        metricSources.add(source);
    }

    synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        senderThread.start();
        reporterThread.start();
    }

    /** Application threads: hands an event over, or drops, counts and releases it. Never blocks. */
    boolean offer(Object event, int type) {
        if (event == null) {
            return false;
        }
        // an event handed over is counted as produced by the reporter thread when it takes it: no shared counter is
        // written per event on an application thread
        if (!closed && handoff.offer(event)) {
            return true;
        }
        stats.produced(type);
        stats.dropped(DropReason.QUEUE_FULL, type, 1);
        releaseQuietly(event);
        return false;
    }

    private void releaseQuietly(Object event) {
        try {
            codec.release(event);
        } catch (Throwable ignored) {
            // never throw into the application; a broken reference count is the tracer's bug and shows in its pool
        }
    }

    long bufferedEvents() {
        return handoff.size() + ring.entries() + sender.inflightCount();
    }

    // ---- reporter thread

    private void reporterLoop() {
        long now = System.nanoTime();
        long metricsInterval = TimeUnit.MILLISECONDS.toNanos(settings.metricsIntervalMillis);
        long statsInterval = TimeUnit.MILLISECONDS.toNanos(settings.statsLogIntervalMillis);
        long nextMetrics = now + metricsInterval;
        long nextStats = now + statsInterval;
        long nextTrim = now + TRIM_INTERVAL_NANOS;
        long maxPark = TimeUnit.MILLISECONDS.toNanos(settings.maxIdleParkMillis);
        try {
            while (true) {
                boolean stop = stopRequested;
                long flushGeneration = flushRequested;
                int n = drain();
                now = System.nanoTime();
                if (n > 0) {
                    handoff.onWork();
                    if (ring.usedBytes() >= senderWakeBytes) {
                        sender.dataAvailable();
                    }
                }
                if (metricsInterval > 0 && now - nextMetrics >= 0) {
                    nextMetrics = now + metricsInterval;
                    collectMetrics();
                    sender.dataAvailable();
                }
                if (statsInterval > 0 && now - nextStats >= 0) {
                    nextStats = now + statsInterval;
                    if (log.isDebugEnabled()) {
                        statsLog.debug("reporter: {} ring_bytes={} ring_resident_bytes={}", stats, ring.usedBytes(),
                                ring.residentBytes());
                    }
                }
                if (now - nextTrim >= 0) {
                    nextTrim = now + TRIM_INTERVAL_NANOS;
                    ring.trimSpares();
                }
                sender.watchdog(now);
                if (n == 0) {
                    if (flushGeneration != sender.reporterFlushed) {
                        // everything offered before the flush request has been moved into the byte ring
                        sender.reporterFlushed = flushGeneration;
                        sender.wake();
                    }
                    if (stop) {
                        return;
                    }
                    long park = maxPark;
                    if (metricsInterval > 0) {
                        park = Math.min(park, nextMetrics - now);
                    }
                    if (sender.ioDeadlineNanos != 0) {
                        park = Math.min(park, TimeUnit.MILLISECONDS.toNanos(100));
                    }
                    handoff.awaitEvents(Math.max(1, park));
                }
            }
        } catch (Throwable t) {
            log.error("the reporter thread stops after an unexpected error; new events will be dropped", t);
            closed = true;
        }
    }

    private int drain() {
        int size = handoff.size();
        if (size < queueMin) {
            queueMin = size;
        }
        if (size > queueMax) {
            queueMax = size;
        }
        int n = 0;
        Object event;
        while (n < BATCH && (event = handoff.poll()) != null) {
            n++;
            process(event);
        }
        return n;
    }

    private void process(Object event) {
        int type = EventTypes.TRANSACTION;
        try {
            type = codec.type(event);
            stats.produced(type);
            json.reset();
            codec.serialize(event, json);
            append(type, json);
        } catch (Throwable t) {
            stats.dropped(DropReason.SERIALIZATION_FAILED, type, 1);
            errorLog.error("could not serialize a {}: {}", EventTypes.name(type), t);
        } finally {
            releaseQuietly(event);
        }
    }

    private void append(int type, JsonHelper line) {
        int len = line.size();
        if (len > settings.maxEventSize || !ring.put(type, line.buffer(), 0, len)) {
            stats.dropped(DropReason.TOO_BIG, type, 1);
        }
    }

    private void collectMetrics() {
        long epochMicros = System.currentTimeMillis() * 1000L;
        for (int i = 0; i < metricSources.size(); i++) {
            try {
                metricSources.get(i).collect(epochMicros, metricSerializer);
            } catch (Throwable t) {
                metricSerializer.endSet();
                errorLog.warn("metric source {} failed: {}", metricSources.get(i).getClass().getName(), t);
            }
        }
    }

    /** Reporter thread: the hand-off fill range (in % of capacity) since the last call, then resets it. */
    double[] takeQueueFillRangePct() {
        int cap = handoff.capacity();
        double[] r = {queueMin == Integer.MAX_VALUE ? 0 : 100.0 * queueMin / cap, 100.0 * queueMax / cap};
        queueMin = Integer.MAX_VALUE;
        queueMax = 0;
        return r;
    }

    // ---- control (integrator, tests; never application threads)

    /**
     * Waits until everything offered before this call has been delivered (or dropped), at most {@code timeoutMillis}.
     * Returns false on timeout or when the sender is backing off from a failing server.
     */
    boolean flush(long timeoutMillis) {
        if (!started || !reporterThread.isAlive()) {
            return false;
        }
        long generation;
        synchronized (this) {
            generation = flushRequested + 1;
            flushRequested = generation;
        }
        handoff.wakeConsumer();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (sender.senderFlushed - generation < 0) {
            if (System.nanoTime() - deadline >= 0 || !senderThread.isAlive()) {
                return false;
            }
            if (sender.isBackingOff() && !sender.draining) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return true;
    }

    /**
     * Stops accepting events, sends what is held (bounded by {@code timeoutMillis}), then stops both threads.
     * Events that could not be sent in time stay counted as buffered. Idempotent.
     */
    void close(long timeoutMillis) {
        synchronized (this) {
            if (closed && !started) {
                return;
            }
            closed = true;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        if (started) {
            stopRequested = true;
            handoff.wakeConsumer();
            join(reporterThread, deadline);
            sender.draining = true;
            sender.wake();
            join(senderThread, deadline);
            if (senderThread.isAlive()) {
                sender.stopRequested = true;
                sender.abortIo();
                sender.wake();
                join(senderThread, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200));
            }
            if (reporterThread.isAlive()) {
                log.warn("the reporter thread did not stop within {} ms", timeoutMillis);
            }
        }
        // events offered after the reporter stopped are still in the hand-off: release them
        Object event;
        while (!reporterThread.isAlive() && (event = handoff.poll()) != null) {
            int type = EventTypes.TRANSACTION;
            try {
                type = codec.type(event);
            } catch (Throwable ignored) {
                // counted as a transaction
            }
            stats.produced(type);
            stats.dropped(DropReason.QUEUE_FULL, type, 1);
            releaseQuietly(event);
        }
        if (log.isDebugEnabled()) {
            log.debug("reporter closed: {}", stats);
        }
    }

    private static void join(Thread t, long deadlineNanos) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            return;
        }
        try {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** Whether the reporter or sender thread of this pipeline is still running (tests: no thread leak after close). */
    boolean threadsAlive() {
        return reporterThread.isAlive() || senderThread.isAlive();
    }
}
