package dev.apmagent.report;

import dev.apmagent.config.UrlUserInfo;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.Deflater;

/**
 * Streams the byte ring to the APM Server: one long-lived chunked {@code POST /intake/v2/events} per
 * {@code api_request_time} or {@code api_request_size} (compressed bytes on the wire), metadata line first, body
 * zlib-compressed at the fastest level ({@code Content-Encoding: deflate}, what the Elastic agent sends and the server
 * expects) unless compression is off or the server is on loopback.
 *
 * <p>Replies: 2xx delivers the request's events. Error bodies {@code {"accepted":N,...}} deliver the first N events of
 * the request; the rest are dropped as {@code server_rejected} after a 4xx and as {@code send_failed} after anything
 * else ({@link ServerReplies#dropReason}). 400 and 413 are logged (rate-limited) with the server's text and not
 * retried or backed off: the next request starts at once. 401/403 are logged with a hint about secret_token/api_key.
 * 401, 403, 404, 429, 5xx, garbage replies and connection failures back off ({@link Backoff}); 5xx, garbage and
 * connection failures also move to the next URL of server_urls. Nothing here ever throws out of the thread.
 */
final class HttpSender extends Sender {

    static final String INTAKE_PATH = "/intake/v2/events";
    static final String DEFAULT_URL = "http://127.0.0.1:8200";
    private static final Logger log = AgentLog.get(HttpSender.class);
    /** One socket write per chunk: 64 KB, so a busy sender makes a few hundred writes a second, not thousands. */
    private static final int CHUNK_DATA = 64 * 1024;
    private static final int CHUNK_HEAD_ROOM = 10;
    static final long IDLE_FLUSH_INTERVAL_MILLIS = 1000;

    private final List<IntakeConnection.Endpoint> endpoints = new ArrayList<IntakeConnection.Endpoint>();
    private final String userAgent;
    private final Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    /** Pending chunk: 10 bytes for the size line, the data, 2 bytes for the CRLF that closes it. */
    private final byte[] chunk = new byte[CHUNK_HEAD_ROOM + CHUNK_DATA + 2];
    private final byte[] replyBody = new byte[IntakeConnection.MAX_REPLY_BODY];
    private int chunkLength;
    private long lastIdleFlushNanos;
    /** For the problems that repeat while they last (a server that is down, a file that cannot be written). */
    private final Logger errorLog;
    private int endpointIndex;
    private javax.net.ssl.SSLSocketFactory sslFactory;
    private volatile IntakeConnection connection;
    private boolean compress;
    private long requestStartNanos;
    private int consecutiveFailures;
    private volatile long backoffUntilNanos;
    private byte[] metadataLine;

    HttpSender(ByteRing ring, ReporterStats stats, PipelineSettings settings, MetadataSource metadata, String agentVersion, String serviceName) {
        super(ring, stats, settings, metadata);
        for (String url : settings.serverUrls) {
            try {
                endpoints.add(IntakeConnection.Endpoint.parse(url, INTAKE_PATH));
            } catch (IllegalArgumentException e) {
                log.error("ignoring server URL '{}': {}", UrlUserInfo.redact(url), e.getMessage());
            }
        }
        if (endpoints.isEmpty()) {
            log.error("no usable APM Server URL in server_url / server_urls; using {}", DEFAULT_URL);
            endpoints.add(IntakeConnection.Endpoint.parse(DEFAULT_URL, INTAKE_PATH));
        }
        this.userAgent = "apm-agent-java/" + agentVersion + " (" + serviceName + ")";
        this.errorLog = log.limitedTo(settings.errorLinesPerMinute);
    }

    @Override
    boolean isBackingOff() {
        return backoffUntilNanos != 0 && backoffUntilNanos - System.nanoTime() > 0;
    }

    @Override
    void abortIo() {
        IntakeConnection c = connection;
        if (c != null) {
            c.abort();
        }
    }

    IntakeConnection.Endpoint currentEndpoint() {
        return endpoints.get(endpointIndex);
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            metadataLine = metadata.metadataLine();
            loop();
        } catch (Throwable t) {
            log.error("the sender thread stops after an unexpected error; events stay buffered", t);
        } finally {
            IntakeConnection c = connection;
            if (c != null) {
                c.close();
                connection = null;
                settleInflight(0, DropReason.SEND_FAILED);
            }
        }
    }

    private void loop() {
        while (!stopRequested) {
            long now = System.nanoTime();
            long until = backoffUntilNanos;
            if (until != 0 && until - now > 0 && !draining) {
                LockSupport.parkNanos(this, until - now);
                continue;
            }
            if (connection == null) {
                long rf = reporterFlushed;
                if (ring.isEmpty()) {
                    senderFlushed = rf;
                    if (draining) {
                        return;
                    }
                    awaitData(TimeUnit.MILLISECONDS.toNanos(settings.maxIdleParkMillis));
                    continue;
                }
                if (!openRequest()) {
                    if (draining) {
                        return; // one attempt at shutdown; what is left stays buffered
                    }
                    continue;
                }
            }
            // bounded batches keep a request close to api_request_size (checked between batches)
            int n = ring.take(batch, CHUNK_DATA, inflight);
            if (n > 0 && !writeBody(batch, 0, n)) {
                continue;
            }
            now = System.nanoTime();
            long rf = reporterFlushed;
            boolean empty = ring.isEmpty();
            boolean timeUp = now - requestStartNanos >= TimeUnit.MILLISECONDS.toNanos(settings.requestTimeMillis);
            boolean sizeUp = connection.bytesWritten() + chunkLength >= settings.requestSizeBytes;
            boolean flushDue = empty && (rf != senderFlushed || draining);
            if (timeUp || sizeUp || flushDue) {
                endRequest();
                if (flushDue) {
                    senderFlushed = rf;
                }
                continue;
            }
            if (empty) {
                long idleFlushIn = TimeUnit.MILLISECONDS.toNanos(IDLE_FLUSH_INTERVAL_MILLIS) - (now - lastIdleFlushNanos);
                if (idleFlushIn <= 0) {
                    if (!idleFlush()) {
                        continue;
                    }
                    idleFlushIn = TimeUnit.MILLISECONDS.toNanos(IDLE_FLUSH_INTERVAL_MILLIS);
                }
                long left = TimeUnit.MILLISECONDS.toNanos(settings.requestTimeMillis) - (System.nanoTime() - requestStartNanos);
                awaitData(Math.min(left, idleFlushIn));
            }
        }
    }

    private boolean openRequest() {
        IntakeConnection.Endpoint endpoint = currentEndpoint();
        compress = settings.compression.equals("true") || (settings.compression.equals("auto") && !endpoint.isLoopback());
        if (endpoint.tls && sslFactory == null) {
            sslFactory = IntakeConnection.socketFactory(settings.verifyServerCert); // TLS set up only when a URL needs it
        }
        IntakeConnection c = new IntakeConnection(settings.serverTimeoutMillis, sslFactory, settings.verifyServerCert, replyBody);
        connection = c;
        List<String> headers = new ArrayList<String>(5);
        headers.add("Content-Type: application/x-ndjson");
        if (compress) {
            headers.add("Content-Encoding: deflate");
        }
        headers.add("User-Agent: " + userAgent);
        if (settings.apiKey != null && !settings.apiKey.isEmpty()) {
            headers.add("Authorization: ApiKey " + settings.apiKey);
        } else if (settings.secretToken != null && !settings.secretToken.isEmpty()) {
            headers.add("Authorization: Bearer " + settings.secretToken);
        }
        deflater.reset();
        chunkLength = 0;
        requestStartNanos = System.nanoTime();
        lastIdleFlushNanos = requestStartNanos;
        try {
            ioDeadlineNanos = deadline(2);
            c.open(endpoint, headers.toArray(new String[0]));
            ioDeadlineNanos = 0;
        } catch (IOException | RuntimeException e) {
            ioDeadlineNanos = 0;
            c.close();
            connection = null;
            onFailure("cannot connect to APM Server at " + endpoint + ": " + e, true);
            return false;
        }
        return writeBody(metadataLine, 0, metadataLine.length);
    }

    private long deadline(int timeouts) {
        if (settings.serverTimeoutMillis <= 0) {
            return 0;
        }
        long d = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos((long) settings.serverTimeoutMillis * timeouts);
        return d == 0 ? 1 : d;
    }

    /**
     * Compresses (or copies) into the pending chunk, writing a chunk whenever it is full; on failure settles the request
     * and returns false. Small events therefore do not become small TCP segments.
     */
    private boolean writeBody(byte[] b, int off, int len) {
        IntakeConnection c = connection;
        try {
            if (compress) {
                deflater.setInput(b, off, len);
                while (!deflater.needsInput()) {
                    deflateInto(c, Deflater.NO_FLUSH);
                }
            } else {
                int pos = off;
                int end = off + len;
                while (pos < end) {
                    int n = Math.min(CHUNK_DATA - chunkLength, end - pos);
                    System.arraycopy(b, pos, chunk, CHUNK_HEAD_ROOM + chunkLength, n);
                    chunkLength += n;
                    pos += n;
                    if (chunkLength == CHUNK_DATA) {
                        writePendingChunk(c);
                    }
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            onWriteFailure(c, e);
            return false;
        }
    }

    /** One deflate call into the free part of the pending chunk; returns whether it filled the chunk. */
    private boolean deflateInto(IntakeConnection c, int flushMode) throws IOException {
        int produced = deflater.deflate(chunk, CHUNK_HEAD_ROOM + chunkLength, CHUNK_DATA - chunkLength, flushMode);
        chunkLength += produced;
        if (chunkLength == CHUNK_DATA) {
            writePendingChunk(c);
            return true;
        }
        return false;
    }

    private void writePendingChunk(IntakeConnection c) throws IOException {
        if (chunkLength <= 0) {
            return;
        }
        ioDeadlineNanos = deadline(1);
        c.writeChunk(chunk, CHUNK_HEAD_ROOM, chunkLength);
        ioDeadlineNanos = 0;
        chunkLength = 0;
    }

    /**
     * At idle moments (at most once per {@link #IDLE_FLUSH_INTERVAL_MILLIS}): pushes everything written so far to the
     * server, so a quiet request still delivers promptly without turning each event into its own segment.
     */
    private boolean idleFlush() {
        IntakeConnection c = connection;
        try {
            if (compress) {
                while (deflateInto(c, Deflater.SYNC_FLUSH)) {
                    // a full chunk was written; the flush continues into the next one
                }
            }
            writePendingChunk(c);
            lastIdleFlushNanos = System.nanoTime();
            return true;
        } catch (IOException | RuntimeException e) {
            onWriteFailure(c, e);
            return false;
        }
    }

    private void endRequest() {
        IntakeConnection c = connection;
        IntakeConnection.Reply reply;
        try {
            if (compress) {
                deflater.finish();
                while (!deflater.finished()) {
                    deflateInto(c, Deflater.NO_FLUSH);
                }
            }
            writePendingChunk(c);
            ioDeadlineNanos = deadline(3);
            reply = c.finish();
            ioDeadlineNanos = 0;
        } catch (IOException | RuntimeException e) {
            ioDeadlineNanos = 0;
            onWriteFailure(c, e);
            return;
        }
        stats.request(c.bytesWritten());
        c.close();
        connection = null;
        onReply(reply);
    }

    private void onWriteFailure(IntakeConnection c, Exception e) {
        ioDeadlineNanos = 0;
        IntakeConnection.Reply early = c == null ? null : c.tryReadEarlyReply();
        if (c != null) {
            stats.request(c.bytesWritten());
            c.close();
        }
        connection = null;
        if (early != null) {
            onReply(early);
        } else {
            onFailure("request to APM Server at " + currentEndpoint() + " failed: " + e, true);
        }
    }

    /** No usable reply: events in flight count as send failures, back off, try the next URL. */
    private void onFailure(String message, boolean rotate) {
        stats.requestFailed();
        settleInflight(0, DropReason.SEND_FAILED);
        errorLog.warn("{} (back-off {} ms)", message, scheduleBackoff());
        if (rotate) {
            rotate();
        }
    }

    private void onReply(IntakeConnection.Reply reply) {
        int status = reply.status;
        if (status >= 200 && status < 300) {
            if (consecutiveFailures > 0) {
                log.info("APM Server at {} accepts events again", currentEndpoint());
            }
            consecutiveFailures = 0;
            backoffUntilNanos = 0;
            stats.backoffMillis(0);
            settleInflight(Long.MAX_VALUE, DropReason.SERVER_REJECTED);
            return;
        }
        stats.requestFailed();
        long accepted = ServerReplies.acceptedCount(reply.body);
        if (ServerReplies.isGarbage(status, reply.contentType, reply.body, reply.truncated)) {
            stats.garbageReply();
        }
        if (status <= 0) {
            // no HTTP status line: we cannot know what the server kept
            settleInflight(0, DropReason.SEND_FAILED);
            if (reply.body == null || reply.body.isEmpty()) {
                errorLog.warn("APM Server at {} closed the connection before sending an HTTP status line; back-off {} ms",
                        currentEndpoint(), scheduleBackoff());
            } else {
                errorLog.warn("APM Server at {} sent no HTTP status line but \"{}\"; back-off {} ms", currentEndpoint(),
                        ServerReplies.forLog(reply.body, 200), scheduleBackoff());
            }
            rotate();
            return;
        }
        String body = ServerReplies.forLog(reply.body, 1000);
        if (status == 400 || status == 413) {
            errorLog.warn("APM Server at {} rejected events (HTTP {}): {}", currentEndpoint(), status, body);
        } else if (status == 401 || status == 403) {
            errorLog.error("APM Server at {} refused the agent's credentials (HTTP {}): {}. Check secret_token or api_key"
                    + " (api_key wins when both are set) against the server's configuration; back-off {} ms",
                    currentEndpoint(), status, body, scheduleBackoff());
        } else if (status == 404) {
            errorLog.error("APM Server at {} has no {} (HTTP 404): is the URL right and the server 6.5 or newer?"
                    + " back-off {} ms", currentEndpoint(), INTAKE_PATH, scheduleBackoff());
        } else if (status == 429) {
            errorLog.warn("APM Server at {} rate-limits the agent (HTTP 429): {}; back-off {} ms", currentEndpoint(), body,
                    scheduleBackoff());
        } else {
            errorLog.warn("APM Server at {} answered HTTP {}: {}; back-off {} ms", currentEndpoint(), status,
                    body, scheduleBackoff());
            if (status >= 500 || status < 200 || (status >= 300 && status < 400)) {
                rotate();
            }
        }
        // counted last: whoever sees the count also sees the log line and the back-off
        settleInflight(Math.max(0, accepted), ServerReplies.dropReason(status));
    }

    private long scheduleBackoff() {
        consecutiveFailures++;
        long delay = Backoff.delayMillis(consecutiveFailures, settings.backoffUnitMillis,
                ThreadLocalRandom.current().nextDouble(-1, 1));
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
        backoffUntilNanos = until == 0 ? 1 : until;
        stats.backoffMillis(delay);
        return delay;
    }

    private void rotate() {
        if (endpoints.size() > 1) {
            endpointIndex = (endpointIndex + 1) % endpoints.size();
            log.debug("next APM Server URL: {}", currentEndpoint());
        }
    }
}
