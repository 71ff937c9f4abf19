package dev.apmagent.report;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The reporting pipeline's counters. An application thread writes none of them for an event it hands over: the
 * reporter thread counts an event as produced when it takes it from the hand-off, and the events still in the hand-off
 * are added when the total is read ({@link #produced()}; their types are not known until then, so
 * {@link #producedOf} counts them once taken). Only the rare queue-full drop is counted on the application thread,
 * through {@link LongAdder}s. Everything else is written by the reporter or the sender thread. A shared counter
 * incremented per event was about 2% of the application's CPU in the overhead harness's profile (LongAdder's cell
 * lookup and CAS on every request thread).
 *
 * <p>Every event is counted once as produced and, in the end, exactly once as delivered, dropped (by reason) or
 * evicted; until then it is buffered (in the hand-off, the byte ring or an unfinished request), so
 * {@code produced = delivered + dropped + evicted + buffered} holds at any quiet moment.
 */
public final class ReporterStats {

    private final LongAdder[] produced = adders(EventTypes.COUNT);
    private final LongAdder[] delivered = adders(EventTypes.COUNT);
    private final LongAdder[] evicted = adders(EventTypes.COUNT);
    private final LongAdder[][] dropped = new LongAdder[DropReason.values().length][];
    private final LongAdder requests = new LongAdder();
    private final LongAdder requestBytes = new LongAdder();
    private final LongAdder requestFailures = new LongAdder();
    private final LongAdder garbageReplies = new LongAdder();
    private final AtomicLong backoffMillis = new AtomicLong();
    private final BufferProbe probe;

    /** Reads how many events each part of the pipeline holds right now. */
    interface BufferProbe {
        long buffered();

        /** Events handed over that the reporter thread has not taken (and so not counted) yet. */
        default long notYetTaken() {
            return 0;
        }
    }

    ReporterStats(BufferProbe probe) {
        this.probe = probe;
        for (int i = 0; i < dropped.length; i++) {
            dropped[i] = adders(EventTypes.COUNT);
        }
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    void produced(int type) {
        produced[type].increment();
    }

    void delivered(int type, long n) {
        delivered[type].add(n);
    }

    void evicted(int type) {
        evicted[type].increment();
    }

    void dropped(DropReason reason, int type, long n) {
        dropped[reason.ordinal()][type].add(n);
    }

    void request(long bytes) {
        requests.increment();
        requestBytes.add(bytes);
    }

    void requestFailed() {
        requestFailures.increment();
    }

    void garbageReply() {
        garbageReplies.increment();
    }

    void backoffMillis(long millis) {
        backoffMillis.set(millis);
    }

    /** Events produced: taken by the reporter thread, dropped before it, or waiting in the hand-off. */
    public long produced() {
        return sum(produced) + probe.notYetTaken();
    }

    public long producedOf(int type) {
        return produced[type].sum();
    }

    public long delivered() {
        return sum(delivered);
    }

    public long deliveredOf(int type) {
        return delivered[type].sum();
    }

    public long evicted() {
        return sum(evicted);
    }

    public long evictedOf(int type) {
        return evicted[type].sum();
    }

    public long dropped() {
        long n = 0;
        for (LongAdder[] perType : dropped) {
            n += sum(perType);
        }
        return n;
    }

    public long dropped(DropReason reason) {
        return sum(dropped[reason.ordinal()]);
    }

    public long droppedOf(DropReason reason, int type) {
        return dropped[reason.ordinal()][type].sum();
    }

    /** Events held right now in the hand-off ring, the byte ring or an unfinished request. */
    public long buffered() {
        return probe.buffered();
    }

    /** Requests completed (successfully or not) and the compressed bytes they carried. */
    public long requests() {
        return requests.sum();
    }

    public long requestBytes() {
        return requestBytes.sum();
    }

    public long requestFailures() {
        return requestFailures.sum();
    }

    /**
     * Replies that could not be read (no status line, a body cut short or over the size limit, a body declared as JSON
     * that is not a JSON object); see {@link ServerReplies#isGarbage}. A well-formed error reply is not counted here.
     */
    public long garbageReplies() {
        return garbageReplies.sum();
    }

    /** The current back-off delay before the next request, 0 when the server is healthy. */
    public long backoffMillis() {
        return backoffMillis.get();
    }

    private static long sum(LongAdder[] adders) {
        long n = 0;
        for (LongAdder a : adders) {
            n += a.sum();
        }
        return n;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(256);
        sb.append("produced=").append(produced()).append(perType(produced))
                .append(" delivered=").append(delivered()).append(perType(delivered))
                .append(" dropped=").append(dropped()).append(" {");
        DropReason[] reasons = DropReason.values();
        for (int i = 0; i < reasons.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(reasons[i].name().toLowerCase(java.util.Locale.ROOT)).append('=')
                    .append(sum(dropped[i]));
        }
        sb.append("} evicted=").append(evicted()).append(perType(evicted))
                .append(" buffered=").append(buffered())
                .append(" requests=").append(requests()).append(" request_bytes=").append(requestBytes())
                .append(" request_failures=").append(requestFailures())
                .append(" garbage_replies=").append(garbageReplies())
                .append(" backoff_ms=").append(backoffMillis());
        return sb.toString();
    }

    private static String perType(LongAdder[] adders) {
        StringBuilder sb = new StringBuilder(" {");
        for (int t = 0; t < EventTypes.COUNT; t++) {
            sb.append(t == 0 ? "" : ", ").append(EventTypes.name(t)).append('=').append(adders[t].sum());
        }
        return sb.append('}').toString();
    }
}
