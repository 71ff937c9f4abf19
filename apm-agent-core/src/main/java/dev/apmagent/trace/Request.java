package dev.apmagent.trace;

/** The HTTP request of a transaction ({@code context.request}). */
public final class Request {

    private CharSequence method;
    private CharSequence httpVersion;
    private CharSequence remoteAddress;
    private final Url url = new Url();
    private final KeyValues headers = new KeyValues();
    private final KeyValues cookies = new KeyValues();

    public boolean hasContent() {
        return method != null || httpVersion != null || remoteAddress != null || url.hasContent()
                || !headers.isEmpty() || !cookies.isEmpty();
    }

    public CharSequence method() {
        return method;
    }

    public void setMethod(CharSequence method) {
        this.method = method;
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
        httpVersion = null;
        remoteAddress = null;
        url.reset();
        headers.reset();
        cookies.reset();
    }
}
