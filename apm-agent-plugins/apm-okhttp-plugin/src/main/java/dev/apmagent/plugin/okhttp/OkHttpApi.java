package dev.apmagent.plugin.okhttp;

/**
 * What the helper asks of OkHttp's objects, which only code defined next to the library can name: the implementation
 * ({@code helper.OkHttp3Api}) is defined in each class loader that has OkHttp ({@link OkHttpHelper#apis}).
 * Arguments are OkHttp's {@code Request} and {@code Response} as {@code Object}. Called only for a request that is
 * traced; any method may throw (the helper counts it).
 */
public interface OkHttpApi {

    String method(Object request);

    String scheme(Object request);

    String host(Object request);

    /** The URL's port, or -1 when it is the scheme's default. */
    int port(Object request);

    /** The encoded path. */
    String path(Object request);

    /** The encoded query, without '?'; null when none. */
    String query(Object request);

    /** The first value of header {@code name}, or null. */
    String header(Object request, String name);

    /** A copy of {@code request} with the {@code count} headers of {@code namesAndValues} (name, value, name, ...) set. */
    Object withHeaders(Object request, String[] namesAndValues, int count);

    /** The response's status code. */
    int code(Object response);
}
