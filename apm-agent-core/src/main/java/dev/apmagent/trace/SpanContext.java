package dev.apmagent.trace;

/** The {@code context} of a span. */
public final class SpanContext {

    private final Db db = new Db();
    private final Destination destination = new Destination();
    private final ServiceTarget serviceTarget = new ServiceTarget();
    private final Http http;

    /** URLs sanitized by the default {@code sanitize_field_names} (stand-alone events). */
    public SpanContext() {
        this(UrlSanitizer.defaults());
    }

    public SpanContext(UrlSanitizer sanitizer) {
        this.http = new Http(sanitizer);
    }

    public Db db() {
        return db;
    }

    public Destination destination() {
        return destination;
    }

    public ServiceTarget serviceTarget() {
        return serviceTarget;
    }

    public Http http() {
        return http;
    }

    /** False when nothing was set: the reporter then omits {@code context}. */
    public boolean hasContent() {
        return db.hasContent() || destination.hasContent() || serviceTarget.hasContent() || http.hasContent();
    }

    public void reset() {
        db.reset();
        destination.reset();
        serviceTarget.reset();
        http.reset();
    }
}
