package dev.apmagent.plugin.okhttp;

import dev.apmagent.plugin.HttpClientCall;
import dev.apmagent.plugin.HttpClientRequest;
import dev.apmagent.trace.TraceParentHeader;

/**
 * One traced OkHttp call, from its enter advice to its exit advice: the application's request, the headers the kit
 * adds to it (OkHttp's {@code Request} is immutable: they go into a copy, {@link #sent}), the kit's call and, for
 * {@code enqueue}, the state its response completes. Made only for a call that is traced.
 */
final class OkHttpRequest {

    /** traceparent, tracestate, elastic-apm-traceparent; one spare. */
    private static final int MAX_HEADERS = 4;

    static final HttpClientRequest<OkHttpRequest> reader = new Reader();

    final OkHttpApi api;
    final Object request;
    /** Whether {@link #request} is a copy this plugin made for an earlier call: its trace headers are ours, replaced. */
    private final boolean copyOfOurs;
    private final String[] added = new String[2 * MAX_HEADERS];
    private int addedCount;
    /** What the call sends: {@link #request}, or its copy with the trace headers. */
    Object sent;
    HttpClientCall call;
    AsyncCallState async;

    OkHttpRequest(OkHttpApi api, Object request, boolean copyOfOurs) {
        this.api = api;
        this.request = request;
        this.copyOfOurs = copyOfOurs;
        this.sent = request;
    }

    /** The request with the headers the kit set, copied once; the request itself when none were set. */
    Object withAddedHeaders() {
        return addedCount == 0 ? request : api.withHeaders(request, added, addedCount);
    }

    /** How the kit reads the application's request and collects the headers to add. */
    private static final class Reader implements HttpClientRequest<OkHttpRequest> {

        @Override
        public String method(OkHttpRequest r) {
            return r.api.method(r.request);
        }

        @Override
        public String scheme(OkHttpRequest r) {
            return r.api.scheme(r.request);
        }

        @Override
        public String host(OkHttpRequest r) {
            return r.api.host(r.request);
        }

        @Override
        public int port(OkHttpRequest r) {
            return r.api.port(r.request);
        }

        @Override
        public String path(OkHttpRequest r) {
            return r.api.path(r.request);
        }

        @Override
        public String query(OkHttpRequest r) {
            return r.api.query(r.request);
        }

        /** An earlier call's trace headers, in a copy of ours, read as absent: the kit then sets (replaces) them. */
        @Override
        public String header(OkHttpRequest r, String name) {
            if (r.copyOfOurs && TraceParentHeader.TRACEPARENT.equals(name)) {
                return null;
            }
            return r.api.header(r.request, name);
        }

        @Override
        public void set(OkHttpRequest r, String name, String value) {
            if (r.addedCount < MAX_HEADERS) {
                r.added[2 * r.addedCount] = name;
                r.added[2 * r.addedCount + 1] = value;
                r.addedCount++;
            }
        }
    }
}
