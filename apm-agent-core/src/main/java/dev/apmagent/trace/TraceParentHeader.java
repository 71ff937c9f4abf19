package dev.apmagent.trace;

/**
 * A reusable holder for one W3C {@code traceparent} (or the older, identically formatted
 * {@code elastic-apm-traceparent}) header: {@code version "-" trace-id "-" parent-id "-" flags}, lower-case hex.
 *
 * <p>Parsing follows the W3C Trace Context rules: version {@code ff} is invalid; version {@code 00} must be exactly
 * {@value #LENGTH} characters; a higher version may be longer as long as a {@code '-'} follows the flags; upper-case
 * hex, all-zero trace ids and all-zero parent ids are invalid; surrounding spaces and tabs are ignored. When a request
 * carries the header more than once, feed every value to {@link #add(CharSequence)}: more than one value is invalid.
 *
 * <p>Parsing allocates nothing. Not thread-safe: one holder per thread or per request.
 *
 * <pre>{@code
 * TraceParentHeader h = new TraceParentHeader();
 * if (h.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")) { h.traceIdHigh(); h.isSampled(); }
 * }</pre>
 * Outgoing headers are written by {@link TraceContext#writeTraceparent(char[], int)}, the one writer.
 */
public final class TraceParentHeader {

    /** The W3C header name (compare case-insensitively, see {@link #isHeaderName(CharSequence, String)}). */
    public static final String TRACEPARENT = "traceparent";
    /** The header older Elastic agents send, same format. */
    public static final String ELASTIC_TRACEPARENT = "elastic-apm-traceparent";
    /** The W3C tracestate header name. */
    public static final String TRACESTATE = "tracestate";

    /** Length of a version-00 traceparent. */
    public static final int LENGTH = 55;
    /** The sampled bit of the trace flags. */
    public static final byte FLAG_SAMPLED = 0x01;

    private long traceIdHigh;
    private long traceIdLow;
    private long parentId;
    private byte flags;
    private int version;
    private boolean valid;
    private int values;

    /** Forgets everything; the holder is then invalid and ready for {@link #add(CharSequence)}. */
    public void reset() {
        traceIdHigh = 0;
        traceIdLow = 0;
        parentId = 0;
        flags = 0;
        version = 0;
        valid = false;
        values = 0;
    }

    /**
     * Resets and parses one header value.
     *
     * @return whether it is a valid traceparent
     */
    public boolean parse(CharSequence value) {
        reset();
        return add(value);
    }

    /**
     * Adds one value of a possibly repeated header (call {@link #reset()} first for a new request). The first value is
     * parsed; any further value makes the result invalid, because a repeated traceparent is ambiguous.
     *
     * @return whether the header seen so far is valid
     */
    public boolean add(CharSequence value) {
        if (++values > 1) {
            valid = false;
            return false;
        }
        valid = value != null && doParse(value);
        if (!valid) {
            traceIdHigh = traceIdLow = parentId = 0;
            flags = 0;
            version = 0;
        }
        return valid;
    }

    private boolean doParse(CharSequence s) {
        int from = 0;
        int to = s.length();
        while (from < to && isOws(s.charAt(from))) {
            from++;
        }
        while (to > from && isOws(s.charAt(to - 1))) {
            to--;
        }
        int len = to - from;
        if (len < LENGTH) {
            return false;
        }
        int v = hexByte(s, from);
        if (v < 0 || v == 0xff) {
            return false;
        }
        if (v == 0 ? len != LENGTH : len > LENGTH && s.charAt(from + LENGTH) != '-') {
            return false;
        }
        if (s.charAt(from + 2) != '-' || s.charAt(from + 35) != '-' || s.charAt(from + 52) != '-') {
            return false;
        }
        long hi = 0;
        long lo = 0;
        long parent = 0;
        for (int i = 0; i < 16; i++) {
            int a = hexDigit(s.charAt(from + 3 + i));
            int b = hexDigit(s.charAt(from + 19 + i));
            int c = hexDigit(s.charAt(from + 36 + i));
            if ((a | b | c) < 0) {
                return false;
            }
            hi = (hi << 4) | a;
            lo = (lo << 4) | b;
            parent = (parent << 4) | c;
        }
        int f = hexByte(s, from + 53);
        if (f < 0 || (hi == 0 && lo == 0) || parent == 0) {
            return false;
        }
        traceIdHigh = hi;
        traceIdLow = lo;
        parentId = parent;
        flags = (byte) f;
        version = v;
        return true;
    }

    public boolean isValid() {
        return valid;
    }

    public long traceIdHigh() {
        return traceIdHigh;
    }

    public long traceIdLow() {
        return traceIdLow;
    }

    public long parentId() {
        return parentId;
    }

    public byte flags() {
        return flags;
    }

    public int version() {
        return version;
    }

    public boolean isSampled() {
        return (flags & FLAG_SAMPLED) != 0;
    }

    /** Whether {@code name} equals {@code lowerCaseName} ignoring ASCII case (HTTP header names). */
    public static boolean isHeaderName(CharSequence name, String lowerCaseName) {
        if (name == null || name.length() != lowerCaseName.length()) {
            return false;
        }
        for (int i = 0; i < lowerCaseName.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                c = (char) (c + 32);
            }
            if (c != lowerCaseName.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Lower-case hex digit value, or -1 (upper-case hex is invalid in traceparent). */
    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    private static int hexByte(CharSequence s, int at) {
        int a = hexDigit(s.charAt(at));
        int b = hexDigit(s.charAt(at + 1));
        return (a | b) < 0 ? -1 : (a << 4) | b;
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }
}
