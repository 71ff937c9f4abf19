package dev.apmagent.trace;

/** The HTTP request of a transaction ({@code context.request}). */
public final class Request {

    /**
     * Characters of the request method kept at most: the method is the client's choice and any token is valid HTTP
     * (the longest registered one, {@code UPDATEREDIRECTREF}, has 17).
     */
    public static final int MAX_METHOD_LENGTH = 32;

    private CharSequence method;
    private CharSequence httpVersion;
    private CharSequence remoteAddress;
    private final StringBuilder longMethod = new StringBuilder(MAX_METHOD_LENGTH);
    private final Url url;

    /** URLs sanitized by the default {@code sanitize_field_names} (stand-alone events). */
    public Request() {
        this(UrlSanitizer.defaults());
    }

    public Request(UrlSanitizer sanitizer) {
        this.url = new Url(sanitizer);
    }
    private final KeyValues headers = new KeyValues();
    private final KeyValues cookies = new KeyValues();

    public boolean hasContent() {
        return method != null || httpVersion != null || remoteAddress != null || url.hasContent()
                || !headers.isEmpty() || !cookies.isEmpty();
    }

    public CharSequence method() {
        return method;
    }

    /**
     * The method as the client sent it ({@code context.request.method} tells the truth, while transaction names put
     * non-standard methods into one bucket), cut to {@value #MAX_METHOD_LENGTH} characters: a longer one is copied,
     * cut, into a builder this object owns (allocation-free), a shorter one is stored as a reference.
     */
    public void setMethod(CharSequence method) {
        if (method != null && method.length() > MAX_METHOD_LENGTH) {
            Texts.copy(method, longMethod, MAX_METHOD_LENGTH);
            this.method = longMethod;
        } else {
            this.method = method;
        }
    }

    /** "1.1", "2", ...; may be null. */
    public CharSequence httpVersion() {
        return httpVersion;
    }

    public void setHttpVersion(CharSequence httpVersion) {
        this.httpVersion = httpVersion;
    }

    public Url url() {
        return url;
    }

    public KeyValues headers() {
        return headers;
    }

    public KeyValues cookies() {
        return cookies;
    }

    /** {@code socket.remote_address}; may be null. */
    public CharSequence remoteAddress() {
        return remoteAddress;
    }

    public void setRemoteAddress(CharSequence remoteAddress) {
        this.remoteAddress = remoteAddress;
    }

    public void reset() {
        method = null;
        longMethod.setLength(0);
        httpVersion = null;
        remoteAddress = null;
        url.reset();
        headers.reset();
        cookies.reset();
    }
}
