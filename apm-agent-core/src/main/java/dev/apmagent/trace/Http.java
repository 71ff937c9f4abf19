package dev.apmagent.trace;

/**
 * {@code context.http} of an outgoing HTTP span. {@link #setUrl} stores the reference it is given; {@link #url()}
 * gives it sanitized by {@link UrlSanitizer} (user-info, sensitive path, query and fragment parameters redacted),
 * computed once at the first read (by the reporter) into a builder this object owns.
 */
public final class Http {

    private final UrlSanitizer sanitizer;
    private CharSequence url;
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
        return url != null || method != null || statusCode != -1;
    }

    /** The full URL with its secrets redacted; may be null. */
    public CharSequence url() {
        if (!sanitized) {
            safeUrl = sanitizer.url(url, redactedUrl, scratch);
            sanitized = true;
        }
        return safeUrl;
    }

    public void setUrl(CharSequence url) {
        this.url = url;
        this.sanitized = false;
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
        safeUrl = null;
        sanitized = false;
        Texts.clear(redactedUrl, 4096);
        Texts.clear(scratch, 4096);
        method = null;
        statusCode = -1;
    }
}
