package dev.apmagent.plugin;

/**
 * How the kit reads an outgoing request of one HTTP client library and writes trace headers into it
 * ({@link HttpClientExits}). A plugin implements it once for its request type, as a stateless singleton in a
 * {@code static final} field; the kit calls it only for a request it traces, never when nothing is active, so the
 * getters may allocate (a client that computes its path on demand). Every method may throw: the kit counts it as a
 * failure of the plugin and records the request without what failed (or not at all).
 *
 * <p>Strings returned are stored as they are and read later by the reporter thread: they must not change afterwards
 * (return {@code String}s, never a builder the client reuses).
 *
 * @param <R> the client's request type, or a small mutable holder of the plugin's when the client's request is
 *            immutable (the JDK's {@code HttpRequest}): {@link #setHeader} then collects the headers to add
 */
public interface HttpClientRequest<R> extends Propagation.HeaderSetter<R> {

    /** The method as the application gave it, e.g. "GET"; null is read as "GET". */
    String method(R request);

    /** "http" or "https"; null is read as "http". */
    String scheme(R request);

    /** The host name or address, without user-info; null when unknown (the request is then recorded without a URL). */
    String host(R request);

    /** The port given in the URL, or -1 when none (the scheme's default applies). */
    int port(R request);

    /** The path, or the path and query together (then {@link #query} returns null); may be null. */
    String path(R request);

    /** The query, without its '?'; null when none (or when {@link #path} included it). */
    String query(R request);

    /** The first value of request header {@code name} (lower case, compare ignoring case), or null. */
    String header(R request, String name);

    /**
     * Sets request header {@code name} to {@code value} (from {@link Propagation#inject}); only called when
     * {@link #header}{@code (request, "traceparent")} was null.
     */
    @Override
    void set(R request, String name, String value);
}
