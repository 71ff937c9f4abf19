package dev.apmagent.trace;

/** {@code context.http} of an outgoing HTTP span. */
public final class Http {

    private CharSequence url;
    private CharSequence method;
    private int statusCode = -1;

    public boolean hasContent() {
        return url != null || method != null || statusCode != -1;
    }

    public CharSequence url() {
        return url;
    }

    public void setUrl(CharSequence url) {
        this.url = url;
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
        method = null;
        statusCode = -1;
    }
}
