package dev.apmagent.trace;

/** The {@code context} of a transaction; only filled for sampled transactions. */
public final class TransactionContext {

    private final Request request;
    private final Response response = new Response();

    /** URLs sanitized by the default {@code sanitize_field_names} (stand-alone events). */
    public TransactionContext() {
        this(UrlSanitizer.defaults());
    }

    public TransactionContext(UrlSanitizer sanitizer) {
        this.request = new Request(sanitizer);
    }

    public Request request() {
        return request;
    }

    public Response response() {
        return response;
    }

    /** False when nothing was set: the reporter then omits {@code context}. */
    public boolean hasContent() {
        return request.hasContent() || response.hasContent();
    }

    public void reset() {
        request.reset();
        response.reset();
    }
}
