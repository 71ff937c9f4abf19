package dev.apmagent.trace;

/**
 * A reusable holder for the W3C {@code tracestate} header: the list members of every header value (several values
 * are one list, joined with ','), validated per the W3C grammar, with the Elastic vendor entry {@code es=s:<rate>}
 * read as the upstream sample rate.
 *
 * <p>Rules: keys are {@code simple-key} (lower-case letter, then up to 255 of {@code a-z 0-9 _ - * /}) or
 * {@code tenant@system} (tenant up to 241, system up to 14 characters); values are 1 to 256 printable ASCII characters
 * except ',' and '=', not ending in a space; spaces and tabs around members and empty members are allowed; a repeated
 * key makes the whole header invalid. An invalid header is dropped entirely (only our own {@code es} entry is then
 * propagated). More than {@value #MAX_MEMBERS} members, or more characters than the size limit, are truncated: later
 * members are dropped, the header stays valid.
 *
 * <p>Outgoing: {@link #appendOutgoing(StringBuilder, double)} writes {@code es=s:<rate>} first (W3C: the vendor that
 * changes an entry moves it to the front), then the other vendors' members in order, within the same bounds.
 *
 * <p>Parsing and writing allocate nothing (the member buffer is allocated once, at the size limit). Other sub-entries
 * of an incoming {@code es} value are not propagated; only {@code s:} is defined by Elastic today. Not
 * thread-safe: one holder per thread or per request.
 *
 * <pre>{@code
 * TraceState ts = new TraceState();
 * ts.add("rojo=00f067aa0ba902b7,es=s:0.5");   // ts.sampleRate() == 0.5
 * ts.appendOutgoing(sb, 0.25);                 // "es=s:0.25,rojo=00f067aa0ba902b7"
 * }</pre>
 */
public final class TraceState {

    /** W3C: at most 32 list members. */
    public static final int MAX_MEMBERS = 32;
    /** Default bound on the characters kept (and propagated) from incoming tracestate headers. */
    public static final int DEFAULT_SIZE_LIMIT = 4096;

    private static final int MAX_SIMPLE_KEY = 256;
    private static final int MAX_TENANT = 241;
    private static final int MAX_SYSTEM = 14;
    private static final int MAX_VALUE = 256;
    /** Upper bound of "es=s:" + rate + "," written by {@link #appendOutgoing}. */
    private static final int ES_ENTRY_MAX = 16;

    private final int sizeLimit;
    /** Kept members (without our es entry), each as key=value, concatenated without separators. */
    private final char[] buf;
    private final int[] memberStart = new int[MAX_MEMBERS];
    private final int[] memberKeyEnd = new int[MAX_MEMBERS];
    private final int[] memberEnd = new int[MAX_MEMBERS];
    private int used;
    private int members;
    private int membersSeen;
    private boolean valid = true;
    private boolean truncated;
    private boolean esSeen;
    private double sampleRate = Double.NaN;

    public TraceState() {
        this(DEFAULT_SIZE_LIMIT);
    }

    /** @param sizeLimit characters of incoming members kept and propagated (at least 64) */
    public TraceState(int sizeLimit) {
        this.sizeLimit = Math.max(64, sizeLimit);
        this.buf = new char[this.sizeLimit];
    }

    /** Forgets all members; the holder is then valid and empty. */
    public void reset() {
        used = 0;
        members = 0;
        membersSeen = 0;
        valid = true;
        truncated = false;
        esSeen = false;
        sampleRate = Double.NaN;
    }

    /**
     * Adds one tracestate header value (null is ignored). Once any value is invalid the whole header is.
     *
     * @return whether the header seen so far is valid
     */
    public boolean add(CharSequence value) {
        if (value == null || !valid) {
            return valid;
        }
        int n = value.length();
        int i = 0;
        while (i <= n) {
            int comma = i;
            while (comma < n && value.charAt(comma) != ',') {
                comma++;
            }
            if (!addMember(value, i, comma)) {
                invalidate();
                return false;
            }
            i = comma + 1;
        }
        return true;
    }

    private void invalidate() {
        valid = false;
        used = 0;
        members = 0;
        sampleRate = Double.NaN;
    }

    /** Validates and stores {@code s[from, to)}; false when it is malformed or a duplicate. */
    private boolean addMember(CharSequence s, int from, int to) {
        while (from < to && isOws(s.charAt(from))) {
            from++;
        }
        while (to > from && isOws(s.charAt(to - 1))) {
            to--;
        }
        if (from == to) {
            return true; // empty list members are allowed
        }
        int eq = keyEnd(s, from, to);
        if (eq < 0 || eq >= to || s.charAt(eq) != '=') {
            return false;
        }
        int valueLen = to - eq - 1;
        if (valueLen < 1 || valueLen > MAX_VALUE) {
            return false;
        }
        for (int i = eq + 1; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == ',' || c == '=') {
                return false;
            }
        }
        // the value cannot end in a space: trailing OWS was trimmed above
        if (isDuplicate(s, from, eq)) {
            return false;
        }
        if (eq - from == 2 && s.charAt(from) == 'e' && s.charAt(from + 1) == 's') {
            sampleRate = parseElasticSampleRate(s, eq + 1, to);
            membersSeen++;
            return true;
        }
        membersSeen++;
        int len = to - from;
        if (members >= MAX_MEMBERS || used + len > sizeLimit) {
            truncated = true;
            return true;
        }
        memberStart[members] = used;
        memberKeyEnd[members] = used + (eq - from);
        for (int i = from; i < to; i++) {
            buf[used++] = s.charAt(i);
        }
        memberEnd[members] = used;
        members++;
        return true;
    }

    /**
     * End of a valid key starting at {@code from} (the index of the '=' or of whatever follows the key), or -1 when
     * the key is malformed.
     */
    private static int keyEnd(CharSequence s, int from, int to) {
        char first = s.charAt(from);
        boolean lowerFirst = first >= 'a' && first <= 'z';
        if (!lowerFirst && !(first >= '0' && first <= '9')) {
            return -1;
        }
        int i = from + 1;
        while (i < to && isKeyChar(s.charAt(i))) {
            i++;
        }
        if (i < to && s.charAt(i) == '@') {
            int tenantLen = i - from;
            if (tenantLen > MAX_TENANT) {
                return -1;
            }
            int sys = i + 1;
            if (sys >= to || !(s.charAt(sys) >= 'a' && s.charAt(sys) <= 'z')) {
                return -1;
            }
            int j = sys + 1;
            while (j < to && isKeyChar(s.charAt(j))) {
                j++;
            }
            return j - sys > MAX_SYSTEM ? -1 : j;
        }
        if (!lowerFirst || i - from > MAX_SIMPLE_KEY) {
            return -1;
        }
        return i;
    }

    private boolean isDuplicate(CharSequence s, int keyFrom, int keyTo) {
        int keyLen = keyTo - keyFrom;
        if (keyLen == 2 && s.charAt(keyFrom) == 'e' && s.charAt(keyFrom + 1) == 's') {
            return esSeen;
        }
        for (int m = 0; m < members; m++) {
            int start = memberStart[m];
            if (memberKeyEnd[m] - start != keyLen) {
                continue;
            }
            int k = 0;
            while (k < keyLen && buf[start + k] == s.charAt(keyFrom + k)) {
                k++;
            }
            if (k == keyLen) {
                return true;
            }
        }
        return false;
    }

    /** {@code s:<rate>} among ';'-separated {@code k:v} entries; NaN when absent or not within [0, 1]. */
    private double parseElasticSampleRate(CharSequence s, int from, int to) {
        esSeen = true;
        int i = from;
        while (i < to) {
            int end = i;
            while (end < to && s.charAt(end) != ';') {
                end++;
            }
            if (end - i > 2 && s.charAt(i) == 's' && s.charAt(i + 1) == ':') {
                return parseRate(s, i + 2, end);
            }
            i = end + 1;
        }
        return Double.NaN;
    }

    /** A decimal in [0, 1] with at most 18 fractional digits (e.g. 1, 0, 0.5, 1.0, .25); NaN otherwise. */
    static double parseRate(CharSequence s, int from, int to) {
        if (from >= to || to - from > 20) {
            return Double.NaN;
        }
        int i = from;
        long intPart = 0;
        boolean digits = false;
        while (i < to && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            intPart = intPart * 10 + (s.charAt(i) - '0');
            i++;
            digits = true;
        }
        long frac = 0;
        long scale = 1;
        if (i < to && s.charAt(i) == '.') {
            i++;
            while (i < to && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                if (scale < 1_000_000_000_000_000_000L) { // digits past the 18th cannot change a 4-decimal rate
                    frac = frac * 10 + (s.charAt(i) - '0');
                    scale *= 10;
                }
                i++;
                digits = true;
            }
        }
        if (i != to || !digits) {
            return Double.NaN;
        }
        double rate = intPart + (double) frac / scale;
        return rate >= 0 && rate <= 1 ? rate : Double.NaN;
    }

    /** Whether every value added since {@link #reset()} was well-formed (an absent or empty header is valid). */
    public boolean isValid() {
        return valid;
    }

    /** Whether members were dropped to keep within {@value #MAX_MEMBERS} members or the size limit. */
    public boolean isTruncated() {
        return truncated;
    }

    /** The upstream Elastic sample rate from {@code es=s:<rate>}, NaN when absent, malformed or out of [0, 1]. */
    public double sampleRate() {
        return sampleRate;
    }

    /** Number of other vendors' members kept for propagation. */
    public int memberCount() {
        return members;
    }

    /**
     * Appends the outgoing tracestate: {@code es=s:<rate>} (rate rounded to 4 decimals; omitted when NaN), then the
     * other vendors' members if the incoming header was valid.
     */
    public void appendOutgoing(StringBuilder out, double rate) {
        boolean first = true;
        if (!Double.isNaN(rate)) {
            out.append("es=s:");
            appendRate(out, rate);
            first = false;
        }
        if (!valid) {
            return;
        }
        // with our es entry in front, one member fewer fits in the W3C limit of 32
        int limit = first ? members : Math.min(members, MAX_MEMBERS - 1);
        for (int m = 0; m < limit; m++) {
            if (!first) {
                out.append(',');
            }
            out.append(buf, memberStart[m], memberEnd[m] - memberStart[m]);
            first = false;
        }
    }

    /** {@link #appendOutgoing(StringBuilder, double)} as a new String (allocates). */
    public String toOutgoing(double rate) {
        StringBuilder sb = new StringBuilder(used + members + ES_ENTRY_MAX);
        appendOutgoing(sb, rate);
        return sb.toString();
    }

    /** Appends {@code rate} clamped to [0, 1] and rounded to 4 decimals, without trailing zeros: 1, 0, 0.5, 0.0001. */
    public static void appendRate(StringBuilder out, double rate) {
        long r = Math.round(Math.max(0, Math.min(1, rate)) * 10000);
        if (r >= 10000) {
            out.append('1');
            return;
        }
        if (r <= 0) {
            out.append('0');
            return;
        }
        out.append('0').append('.');
        int divisor = 1000;
        while (r > 0) {
            long d = r / divisor;
            out.append((char) ('0' + d));
            r -= d * divisor;
            divisor /= 10;
        }
    }

    private static boolean isKeyChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '*' || c == '/';
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }
}
