package dev.apmagent.trace;

/**
 * The W3C trace context of one event: trace id, own id, parent id, flags, sample rate and the outgoing tracestate.
 * Embedded in every transaction and span (one instance per event object, never shared); mutable and reset on recycle.
 */
public final class TraceContext {

    /** W3C trace-flags bit 0. */
    public static final int FLAG_SAMPLED = 0x01;
    /** Length of a {@code traceparent} header value: {@code 00-<32 hex>-<16 hex>-<2 hex>}. */
    public static final int TRACEPARENT_LENGTH = 55;

    private long traceIdHigh;
    private long traceIdLow;
    private long id;
    private long parentId;
    private int flags;
    private double sampleRate = Double.NaN;
    private CharSequence tracestate;

    /** High 64 bits of the 128-bit trace id. */
    public long traceIdHigh() {
        return traceIdHigh;
    }

    /** Low 64 bits of the 128-bit trace id. */
    public long traceIdLow() {
        return traceIdLow;
    }

    /** 64-bit id of this transaction or span. */
    public long id() {
        return id;
    }

    /** Id of the parent transaction or span; 0 when this is a root. */
    public long parentId() {
        return parentId;
    }

    /** W3C trace-flags (only bit 0, sampled, is defined). */
    public int flags() {
        return flags;
    }

    public boolean isSampled() {
        return (flags & FLAG_SAMPLED) != 0;
    }

    /**
     * Sample rate in effect for this trace: the configured rate for local roots (0 when the root was not sampled), the
     * {@code es=s:} value of an incoming tracestate otherwise; {@link Double#NaN} when unknown (a remote parent that did
     * not send one), in which case {@code sample_rate} is omitted from the event.
     */
    public double sampleRate() {
        return sampleRate;
    }

    public boolean hasSampleRate() {
        return !Double.isNaN(sampleRate);
    }

    /** Outgoing tracestate header value; may be null. */
    public CharSequence tracestate() {
        return tracestate;
    }

    // ---- mutators (tracer and tests) ----

    /** Makes this the context of a local root: new trace id, no parent. */
    public void initRoot(long traceIdHigh, long traceIdLow, long id, boolean sampled, double sampleRate) {
        this.traceIdHigh = traceIdHigh;
        this.traceIdLow = traceIdLow;
        this.id = id;
        this.parentId = 0;
        this.flags = sampled ? FLAG_SAMPLED : 0;
        this.sampleRate = sampleRate;
        this.tracestate = null;
    }

    /** Makes this the context of a child of a remote parent whose trace id, id, flags and tracestate were parsed. */
    public void initRemoteChild(long traceIdHigh, long traceIdLow, long parentId, int flags, double sampleRate,
                                CharSequence tracestate, long id) {
        this.traceIdHigh = traceIdHigh;
        this.traceIdLow = traceIdLow;
        this.id = id;
        this.parentId = parentId;
        this.flags = flags & 0xFF;
        this.sampleRate = sampleRate;
        this.tracestate = tracestate;
    }

    /** Makes this the context of a local child of {@code parent}: same trace, flags, rate and tracestate. */
    public void initChild(TraceContext parent, long id) {
        this.traceIdHigh = parent.traceIdHigh;
        this.traceIdLow = parent.traceIdLow;
        this.id = id;
        this.parentId = parent.id;
        this.flags = parent.flags;
        this.sampleRate = parent.sampleRate;
        this.tracestate = parent.tracestate;
    }

    public void setTraceId(long traceIdHigh, long traceIdLow) {
        this.traceIdHigh = traceIdHigh;
        this.traceIdLow = traceIdLow;
    }

    public void setId(long id) {
        this.id = id;
    }

    public void setParentId(long parentId) {
        this.parentId = parentId;
    }

    public void setSampled(boolean sampled) {
        this.flags = sampled ? (flags | FLAG_SAMPLED) : (flags & ~FLAG_SAMPLED);
    }

    public void setSampleRate(double sampleRate) {
        this.sampleRate = sampleRate;
    }

    public void setTracestate(CharSequence tracestate) {
        this.tracestate = tracestate;
    }

    /** Writes the outgoing {@code traceparent} value (this event as the parent) into {@code dst[off..off+55)}. */
    public void writeTraceparent(char[] dst, int off) {
        dst[off] = '0';
        dst[off + 1] = '0';
        dst[off + 2] = '-';
        Hex.writeLongHex(traceIdHigh, dst, off + 3);
        Hex.writeLongHex(traceIdLow, dst, off + 19);
        dst[off + 35] = '-';
        Hex.writeLongHex(id, dst, off + 36);
        dst[off + 52] = '-';
        Hex.writeByteHex(flags, dst, off + 53);
    }

    /** Writes the outgoing {@code traceparent} value (this event as the parent) into {@code dst[off..off+55)}. */
    public void writeTraceparent(byte[] dst, int off) {
        dst[off] = '0';
        dst[off + 1] = '0';
        dst[off + 2] = '-';
        Hex.writeLongHex(traceIdHigh, dst, off + 3);
        Hex.writeLongHex(traceIdLow, dst, off + 19);
        dst[off + 35] = '-';
        Hex.writeLongHex(id, dst, off + 36);
        dst[off + 52] = '-';
        Hex.writeByteHex(flags, dst, off + 53);
    }

    /** Back to the state of a new instance. */
    public void reset() {
        traceIdHigh = 0;
        traceIdLow = 0;
        id = 0;
        parentId = 0;
        flags = 0;
        sampleRate = Double.NaN;
        tracestate = null;
    }
}
