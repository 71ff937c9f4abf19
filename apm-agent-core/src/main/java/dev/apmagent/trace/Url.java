package dev.apmagent.trace;

/**
 * The URL of a request, kept in parts; {@link #full()} assembles it on demand into a reusable builder.
 *
 * <p>{@link #set} only stores the references it is given (nothing is copied on the application's thread). What the
 * getters return is sanitized ({@link UrlSanitizer}, {@code sanitize_field_names}): the values of sensitive path and
 * query parameters read {@code [REDACTED]}. The work is done once, at the first read after {@link #set} (by the
 * reporter), into builders this object owns; when there is nothing to redact the stored references are returned.
 */
public final class Url {

    private final UrlSanitizer sanitizer;
    private CharSequence protocol;
    private CharSequence hostname;
    private CharSequence pathname;
    private CharSequence search;
    private int port = -1;
    private final StringBuilder full = new StringBuilder();
    /** Sanitized views: the stored reference, or the builder below holding the redacted copy. */
    private CharSequence safePathname;
    private CharSequence safeSearch;
    private boolean sanitized;
    private final StringBuilder redactedPathname = new StringBuilder();
    private final StringBuilder redactedSearch = new StringBuilder();
    private final StringBuilder scratch = new StringBuilder();

    /** A URL sanitized by the default {@code sanitize_field_names} (stand-alone events). */
    public Url() {
        this(UrlSanitizer.defaults());
    }

    public Url(UrlSanitizer sanitizer) {
        this.sanitizer = sanitizer;
    }

    /** E.g. "https"; may be null. */
    public CharSequence protocol() {
        return protocol;
    }

    public CharSequence hostname() {
        return hostname;
    }

    /** The path, with the values of sensitive path parameters ({@code ;jsessionid=...}) redacted; may be null. */
    public CharSequence pathname() {
        sanitize();
        return safePathname;
    }

    /** Query string without the '?', with the values of sensitive parameters redacted; may be null. */
    public CharSequence search() {
        sanitize();
        return safeSearch;
    }

    private void sanitize() {
        if (!sanitized) {
            safePathname = sanitizer.path(pathname, redactedPathname, scratch);
            safeSearch = sanitizer.query(search, redactedSearch, scratch);
            sanitized = true;
        }
    }

    /** -1 when none. */
    public int port() {
        return port;
    }

    public void set(CharSequence protocol, CharSequence hostname, int port, CharSequence pathname, CharSequence search) {
        this.protocol = protocol;
        this.hostname = hostname;
        this.port = port;
        this.pathname = pathname;
        this.search = search;
        this.sanitized = false;
    }

    public boolean hasContent() {
        return protocol != null || hostname != null || pathname != null || search != null || port != -1;
    }

    /**
     * {@code protocol://hostname[:port]pathname[?search]} of the sanitized parts, built into a builder owned by this
     * object (valid until the next call or reset). The port is left out when it is the protocol's default.
     */
    public CharSequence full() {
        CharSequence pathname = pathname();
        CharSequence search = search();
        full.setLength(0);
        if (protocol != null) {
            full.append(protocol).append("://");
        }
        if (hostname != null) {
            full.append(hostname);
        }
        if (port > 0 && !isDefaultPort()) {
            full.append(':').append(port);
        }
        if (pathname != null) {
            full.append(pathname);
        }
        if (search != null && search.length() > 0) {
            full.append('?').append(search);
        }
        return full;
    }

    private boolean isDefaultPort() {
        return port == Http.defaultPort(protocol);
    }

    public void reset() {
        protocol = null;
        hostname = null;
        pathname = null;
        search = null;
        port = -1;
        safePathname = null;
        safeSearch = null;
        sanitized = false;
        Texts.clear(full, 4096);
        Texts.clear(redactedPathname, 4096);
        Texts.clear(redactedSearch, 4096);
        Texts.clear(scratch, 4096);
    }
}
