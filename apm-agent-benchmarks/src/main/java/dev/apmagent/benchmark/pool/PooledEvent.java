package dev.apmagent.benchmark.pool;

/**
 * What the pool benchmarks recycle: an object shaped like a span (ids, timing, a name builder and a few references),
 * so that filling and resetting it touch about as many cache lines as the real events do. The {@link #home} field is
 * used only by {@link ReturnToOriginPool}, which needs to know where an object came from.
 */
public final class PooledEvent {

    long id;
    long traceIdHigh;
    long traceIdLow;
    long parentId;
    long timestampMicros;
    long durationNanos;
    final StringBuilder name = new StringBuilder(64);
    String type;
    String subtype;
    boolean exit;
    /** The return-to-origin pool's queue of the thread that acquired this object; null for the other pools. */
    Object home;

    /** What an application thread writes into a freshly acquired event. */
    void fill(long sequence) {
        id = sequence;
        traceIdHigh = sequence * 31;
        traceIdLow = sequence ^ 0x5DEECE66DL;
        parentId = sequence + 1;
        timestampMicros = sequence << 3;
        name.append("SELECT FROM orders");
        type = "db";
        subtype = "postgresql";
        exit = true;
    }

    /** What the releasing thread reads (as a serializer would) before resetting; the sum keeps the reads alive. */
    long consume() {
        return id + traceIdHigh + traceIdLow + parentId + timestampMicros + durationNanos + name.length()
                + (type == null ? 0 : 1) + (subtype == null ? 0 : 2) + (exit ? 4 : 0);
    }

    /** Clears every field the application wrote, as the tracer's recycle does before release. */
    void reset() {
        id = 0;
        traceIdHigh = 0;
        traceIdLow = 0;
        parentId = 0;
        timestampMicros = 0;
        durationNanos = 0;
        name.setLength(0);
        type = null;
        subtype = null;
        exit = false;
    }
}
