package dev.apmagent.trace;

/**
 * {@code context.http} of an outgoing HTTP span. The URL is given whole ({@link #setUrl(CharSequence)}) or in parts
 * ({@link #setUrl(CharSequence, CharSequence, int, CharSequence, CharSequence)}); either way only the references are
 * stored (nothing is copied on the application's thread, so they must not change afterwards: pass strings).
 * {@link #url()} assembles the parts and sanitizes the result by {@link UrlSanitizer} (user-info, sensitive path,
 * query and fragment parameters redacted), once, at the first read (by the reporter), into builders this object owns.
 */
public final class Http {

    private final UrlSanitizer sanitizer;
    private CharSequence url;
    private CharSequence scheme;
    private CharSequence host;
    private int port = -1;
    private CharSequence path;
    private CharSequence query;
    private final StringBuilder assembled = new StringBuilder();
    private CharSequence safeUrl;
    private boolean sanitized;
    private final StringBuilder redactedUrl = new StringBuilder();
    private final StringBuilder scratch = new StringBuilder();
    private CharSequence method;
    private int statusCode = -1;

    /** Sanitized by the default {@code sanitize_field_names} (stand-alone events). */
    public Http() {
        this(UrlSanitizer.defaults());
    }

    public Http(UrlSanitizer sanitizer) {
        this.sanitizer = sanitizer;
    }

    public boolean hasContent() {
        return url != null || host != null || method != null || statusCode != -1;
    }

    /** The full URL with its secrets redacted; may be null. */
    public CharSequence url() {
        if (!sanitized) {
            safeUrl = sanitizer.url(url != null ? url : assemble(), redactedUrl, scratch);
            sanitized = true;
        }
        return safeUrl;
    }

    /** The full URL, as the client holds it (its user-info, if any, is redacted when read); wins over parts. */
    public void setUrl(CharSequence url) {
        this.url = url;
        this.sanitized = false;
    }

    /**
     * The URL in the parts a client holds, assembled only when read: {@code scheme://host[:port]path[?query]}.
     *
     * @param scheme e.g. "https"; null is read as "http"
     * @param host   the host name or address (an IPv6 address with or without its brackets); null: no URL
     * @param port   the port, or -1 when the URL has none; left out of the URL when it is the scheme's default
     * @param path   the path, or the path and query together (then {@code query} is null); may be null
     * @param query  the query without its '?', or null
     */
    public void setUrl(CharSequence scheme, CharSequence host, int port, CharSequence path, CharSequence query) {
        this.url = null;
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.path = path;
        this.query = query;
        this.sanitized = false;
    }

    private CharSequence assemble() {
        if (host == null) {
            return null;
        }
        StringBuilder b = assembled;
        b.setLength(0);
        CharSequence s = scheme == null ? "http" : scheme;
        b.append(s).append("://");
        appendHost(b, host);
        if (port >= 0 && port != defaultPort(s)) {
            b.append(':').append(port);
        }
        if (path == null || path.length() == 0 || path.charAt(0) != '/') {
            b.append('/');
        }
        if (path != null) {
            b.append(path);
        }
        if (query != null) {
            b.append('?').append(query);
        }
        return b;
    }

    /** Appends {@code host}, bracketed when it is an IPv6 address without its brackets. */
    public static void appendHost(StringBuilder out, CharSequence host) {
        boolean bare6 = host.length() > 0 && host.charAt(0) != '[' && indexOf(host, ':') >= 0;
        if (bare6) {
            out.append('[').append(host).append(']');
        } else {
            out.append(host);
        }
    }

    /** 80 for http and ws, 443 for https and wss (ASCII case ignored), else -1. */
    public static int defaultPort(CharSequence scheme) {
        return scheme == null ? -1 : defaultPort(scheme, scheme.length());
    }

    /** {@link #defaultPort(CharSequence)} of the scheme {@code s[0, n)}, such as the start of a whole URL. */
    public static int defaultPort(CharSequence s, int n) {
        if (n < 2 || n > 5) {
            return -1;
        }
        boolean secure = lower(s.charAt(n - 1)) == 's' && (n == 5 || n == 3);
        int base = secure ? n - 1 : n;
        if (base == 4 && lower(s.charAt(0)) == 'h' && lower(s.charAt(1)) == 't' && lower(s.charAt(2)) == 't'
                && lower(s.charAt(3)) == 'p') {
            return secure ? 443 : 80;
        }
        if (base == 2 && lower(s.charAt(0)) == 'w' && lower(s.charAt(1)) == 's') {
            return secure ? 443 : 80;
        }
        return -1;
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    private static int indexOf(CharSequence s, char c) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    public CharSequence method() {
        return method;
    }

    public void setMethod(CharSequence method) {
        this.method = method;
    }

    /** -1 when none. */
    public int statusCode() {
        return statusCode;
    }

    public void setStatusCode(int statusCode) {
        this.statusCode = statusCode;
    }

    public void reset() {
        url = null;
        scheme = null;
        host = null;
        port = -1;
        path = null;
        query = null;
        Texts.clear(assembled, 4096);
        safeUrl = null;
        sanitized = false;
        Texts.clear(redactedUrl, 4096);
        Texts.clear(scratch, 4096);
        method = null;
        statusCode = -1;
    }
}
