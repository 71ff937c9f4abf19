package dev.apmagent.report;

import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * output_file mode: writes the same NDJSON an APM Server would receive (uncompressed, metadata line first) to a
 * file, for demos and debugging without a server. The file is truncated when the agent starts; it is flushed about
 * once a second, on {@code flush} and on shutdown. Events written to the stream count as delivered.
 */
final class FileSender extends Sender {

    private static final Logger log = AgentLog.get(FileSender.class);

    private final File file;
    /** For the problems that repeat while they last (a server that is down, a file that cannot be written). */
    private final Logger errorLog;
    private OutputStream out;
    private boolean opened;
    private long lastFlushNanos;
    private int failures;
    private long retryAtNanos;

    FileSender(ByteRing ring, ReporterStats stats, PipelineSettings settings, MetadataSource metadata) {
        super(ring, stats, settings, metadata);
        this.file = new File(settings.outputFile);
        this.errorLog = log.limitedTo(settings.errorLinesPerMinute);
    }

    @Override
    boolean isBackingOff() {
        return retryAtNanos != 0 && retryAtNanos - System.nanoTime() > 0;
    }

    @Override
    void abortIo() {
        // file writes are not aborted
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            loop();
        } catch (Throwable t) {
            log.error("the output_file writer stops after an unexpected error", t);
        } finally {
            closeQuietly();
        }
    }

    private void loop() {
        long flushInterval = TimeUnit.MILLISECONDS.toNanos(settings.fileFlushIntervalMillis);
        while (!stopRequested) {
            long now = System.nanoTime();
            if (retryAtNanos != 0 && retryAtNanos - now > 0 && !draining) {
                LockSupport.parkNanos(this, retryAtNanos - now);
                continue;
            }
            long rf = reporterFlushed;
            try {
                int n = ring.take(batch, inflight);
                if (n > 0) {
                    ensureOpen();
                    out.write(batch, 0, n);
                    settleInflight(Long.MAX_VALUE, DropReason.SEND_FAILED);
                }
                boolean empty = ring.isEmpty();
                if (empty && (rf != senderFlushed || draining || System.nanoTime() - lastFlushNanos >= flushInterval)) {
                    if (out != null) {
                        out.flush();
                    }
                    lastFlushNanos = System.nanoTime();
                    senderFlushed = rf;
                    if (draining) {
                        return;
                    }
                }
                failures = 0;
                retryAtNanos = 0;
                if (empty) {
                    awaitData(flushInterval);
                }
            } catch (IOException e) {
                settleInflight(0, DropReason.SEND_FAILED);
                failures++;
                long delay = Backoff.delayMillis(failures, settings.backoffUnitMillis, 0);
                long at = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
                retryAtNanos = at == 0 ? 1 : at;
                errorLog.warn("cannot write output_file {}: {} (retry in {} ms)", file, e.toString(), delay);
                closeQuietly();
                if (draining) {
                    return;
                }
            }
        }
    }

    private void ensureOpen() throws IOException {
        if (out != null) {
            return;
        }
        File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            throw new IOException("cannot create directory " + parent);
        }
        // truncate on the first open of this run, append when reopening after an error
        out = new BufferedOutputStream(new FileOutputStream(file, opened), 64 * 1024);
        opened = true;
        byte[] line = metadata.metadataLine();
        out.write(line, 0, line.length);
    }

    private void closeQuietly() {
        OutputStream o = out;
        out = null;
        if (o != null) {
            try {
                o.close();
            } catch (IOException e) {
                log.debug("closing output_file {}: {}", file, e.toString());
            }
        }
    }
}
