package dev.apmagent.plugin.okhttp.helper;

import dev.apmagent.plugin.okhttp.OkHttpApi;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;

/**
 * {@link OkHttpApi} over OkHttp's public API as 3.0 has it; OkHttp 4 and 5 keep every method used here with the same
 * descriptor (Kotlin properties with their Java names), so the same bytes serve all three lines. Defined next to OkHttp,
 * once per class loader.
 */
public final class OkHttp3Api implements OkHttpApi {

    @Override
    public String method(Object request) {
        return ((Request) request).method();
    }

    @Override
    public String scheme(Object request) {
        return ((Request) request).url().scheme();
    }

    @Override
    public String host(Object request) {
        return ((Request) request).url().host();
    }

    @Override
    public int port(Object request) {
        HttpUrl url = ((Request) request).url();
        int port = url.port();
        return port == HttpUrl.defaultPort(url.scheme()) ? -1 : port;
    }

    @Override
    public String path(Object request) {
        return ((Request) request).url().encodedPath();
    }

    @Override
    public String query(Object request) {
        return ((Request) request).url().encodedQuery();
    }

    @Override
    public String header(Object request, String name) {
        return ((Request) request).header(name);
    }

    @Override
    public Object withHeaders(Object request, String[] namesAndValues, int count) {
        Request.Builder builder = ((Request) request).newBuilder();
        for (int i = 0; i + 1 < count * 2; i += 2) {
            builder.header(namesAndValues[i], namesAndValues[i + 1]);
        }
        return builder.build();
    }

    @Override
    public int code(Object response) {
        return ((Response) response).code();
    }
}
