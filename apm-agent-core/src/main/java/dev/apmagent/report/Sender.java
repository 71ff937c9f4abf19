package dev.apmagent.report;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * The "apm-sender" thread: takes serialized events out of the {@link ByteRing} and delivers them (HTTP to the APM
 * Server, or a file). It is the only thread that does network or file I/O, so a slow, failing or backed-off server
 * stalls nothing but this thread: the reporter keeps serializing into the ring (oldest entries evicted when full) and
 * application threads never notice.
 */
abstract class Sender implements Runnable {

    /**
     * The reporter wakes a waiting sender once this much is buffered (a full chunk of the HTTP body, or an eighth of a
     * smaller byte ring); less waits for the sender's own timers (the idle flush, at most a second), a flush or a
     * stop. Waking the sender for every batch cost a context switch per batch while the sender only copied the bytes
     * into its pending chunk. 64 KB rather than 16: at 40 MB/s of events (a saturated service, uncompressed to a
     * loopback server) that is 600 wake-ups a second instead of 2,400.
     */
    static final int WAKE_BYTES = 64 * 1024;

    private static final AtomicIntegerFieldUpdater<Sender> WAITING = AtomicIntegerFieldUpdater.newUpdater(Sender.class, "waiting");

    final ByteRing ring;
    final ReporterStats stats;
    final PipelineSettings settings;
    final MetadataSource metadata;
    /** Events taken from the ring and not yet known as delivered or dropped. */
    final TypeSequence inflight = new TypeSequence();
    /** Largest entry plus room for chunk framing. */
    final byte[] batch;

    private final int[] settledDelivered = new int[EventTypes.COUNT];
    private final int[] settledDropped = new int[EventTypes.COUNT];
    private volatile int waiting;
    volatile Thread thread;
    volatile boolean stopRequested;
    /** Set at shutdown: send what is left right away, ignoring request timers and the remaining back-off. */
    volatile boolean draining;
    /** The last flush generation the reporter has fully moved into the ring, and the last one this sender completed. */
    volatile long reporterFlushed;
    volatile long senderFlushed;
    /** Deadline of the blocking I/O in progress (System.nanoTime), 0 when none; checked by the reporter's watchdog. */
    volatile long ioDeadlineNanos;

    /** Builds the metadata line once, on the sender thread. */
    interface MetadataSource {
        byte[] metadataLine();
    }

    Sender(ByteRing ring, ReporterStats stats, PipelineSettings settings, MetadataSource metadata) {
        this.ring = ring;
        this.stats = stats;
        this.settings = settings;
        this.metadata = metadata;
        this.batch = new byte[Math.max(64 * 1024, settings.maxEventSize + 16)];
    }

    int inflightCount() {
        return inflight.size();
    }

    /** Whether the sender is waiting out a back-off (flushes do not wait for it). */
    abstract boolean isBackingOff();

    /** Closes a connection whose blocking I/O overran its deadline; any thread. */
    abstract void abortIo();

    /** Called by the reporter thread after it added entries to the ring. Cheap when the sender is busy. */
    final void dataAvailable() {
        if (waiting != 0 && WAITING.compareAndSet(this, 1, 0)) {
            wake();
        }
    }

    final void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Parks up to {@code maxNanos} unless data, a flush or a stop is pending. */
    final void awaitData(long maxNanos) {
        if (maxNanos <= 0) {
            return;
        }
        waiting = 1;
        if (!ring.isEmpty() || stopRequested || draining || reporterFlushed != senderFlushed) {
            waiting = 0;
            return;
        }
        LockSupport.parkNanos(this, maxNanos);
        waiting = 0;
    }

    /** Reporter thread, each loop: aborts I/O that has been blocked past its deadline (a stuck or very slow server). */
    final void watchdog(long nowNanos) {
        long d = ioDeadlineNanos;
        if (d != 0 && nowNanos - d > 0) {
            ioDeadlineNanos = 0;
            abortIo();
        }
    }

    /** Counts the first {@code accepted} in-flight events as delivered and the rest as dropped for {@code reason}. */
    final void settleInflight(long accepted, DropReason reason) {
        int n = inflight.size();
        long ok = Math.max(0, Math.min(accepted, n));
        int[] delivered = settledDelivered;
        int[] dropped = settledDropped;
        java.util.Arrays.fill(delivered, 0);
        java.util.Arrays.fill(dropped, 0);
        for (int i = 0; i < n; i++) {
            int t = inflight.get(i);
            if (i < ok) {
                delivered[t]++;
            } else {
                dropped[t]++;
            }
        }
        for (int t = 0; t < EventTypes.COUNT; t++) {
            if (delivered[t] > 0) {
                stats.delivered(t, delivered[t]);
            }
            if (dropped[t] > 0) {
                stats.dropped(reason, t, dropped[t]);
            }
        }
        inflight.clear();
    }
}
