package dev.apmagent.report;

import dev.apmagent.trace.KeyValues;
import dev.apmagent.trace.Request;
import dev.apmagent.trace.Response;
import dev.apmagent.trace.TraceContext;
import dev.apmagent.trace.Transaction;
import dev.apmagent.trace.TransactionContext;
import dev.apmagent.trace.Url;

/** Writes one {@code {"transaction":{...}}} line. Reporter thread only; allocation-free. */
final class TransactionSerializer {

    private static final byte[] TRANSACTION = JsonHelper.name("transaction");
    private static final byte[] TIMESTAMP = JsonHelper.name("timestamp");
    private static final byte[] NAME = JsonHelper.name("name");
    private static final byte[] ID = JsonHelper.name("id");
    private static final byte[] TRACE_ID = JsonHelper.name("trace_id");
    private static final byte[] PARENT_ID = JsonHelper.name("parent_id");
    private static final byte[] TYPE = JsonHelper.name("type");
    private static final byte[] DURATION = JsonHelper.name("duration");
    private static final byte[] RESULT = JsonHelper.name("result");
    private static final byte[] OUTCOME = JsonHelper.name("outcome");
    private static final byte[] SAMPLED = JsonHelper.name("sampled");
    private static final byte[] SAMPLE_RATE = JsonHelper.name("sample_rate");
    private static final byte[] SPAN_COUNT = JsonHelper.name("span_count");
    private static final byte[] STARTED = JsonHelper.name("started");
    private static final byte[] DROPPED = JsonHelper.name("dropped");
    private static final byte[] CONTEXT = JsonHelper.name("context");
    private static final byte[] REQUEST = JsonHelper.name("request");
    private static final byte[] METHOD = JsonHelper.name("method");
    private static final byte[] HTTP_VERSION = JsonHelper.name("http_version");
    private static final byte[] URL = JsonHelper.name("url");
    private static final byte[] FULL = JsonHelper.name("full");
    private static final byte[] PROTOCOL = JsonHelper.name("protocol");
    private static final byte[] HOSTNAME = JsonHelper.name("hostname");
    private static final byte[] PORT = JsonHelper.name("port");
    private static final byte[] PATHNAME = JsonHelper.name("pathname");
    private static final byte[] SEARCH = JsonHelper.name("search");
    private static final byte[] HEADERS = JsonHelper.name("headers");
    private static final byte[] COOKIES = JsonHelper.name("cookies");
    private static final byte[] SOCKET = JsonHelper.name("socket");
    private static final byte[] REMOTE_ADDRESS = JsonHelper.name("remote_address");
    private static final byte[] RESPONSE = JsonHelper.name("response");
    private static final byte[] STATUS_CODE = JsonHelper.name("status_code");
    private static final byte[] FINISHED = JsonHelper.name("finished");
    private static final byte[] HEADERS_SENT = JsonHelper.name("headers_sent");
    private static final byte[] SERVICE = JsonHelper.name("service");
    private static final byte[] FRAMEWORK = JsonHelper.name("framework");
    private static final byte[] VERSION = JsonHelper.name("version");
    static final String DEFAULT_TYPE = "custom";
    static final String UNKNOWN_METHOD = "UNKNOWN";

    private TransactionSerializer() {
    }

    static void serialize(Transaction t, JsonHelper h) {
        TraceContext tc = t.traceContext();
        h.startObject();
        h.field(TRANSACTION);
        h.startObject();
        h.field(TIMESTAMP);
        h.number(t.timestampMicros());
        h.field(NAME);
        h.string(t.name());
        h.field(ID);
        h.hex64(tc.id());
        h.field(TRACE_ID);
        h.hex128(tc.traceIdHigh(), tc.traceIdLow());
        if (tc.parentId() != 0) {
            h.field(PARENT_ID);
            h.hex64(tc.parentId());
        }
        h.field(TYPE);
        h.string(t.type() != null ? t.type() : DEFAULT_TYPE);
        h.field(DURATION);
        h.durationMillis(t.durationNanos());
        h.optionalString(RESULT, t.result());
        h.field(OUTCOME);
        h.raw(SerializerSupport.outcome(t.outcome()));
        h.field(SAMPLED);
        h.bool(tc.isSampled());
        if (tc.hasSampleRate()) {
            h.field(SAMPLE_RATE);
            h.number(tc.isSampled() ? tc.sampleRate() : 0.0);
        }
        h.field(SPAN_COUNT);
        h.startObject();
        h.field(STARTED);
        h.number(t.spanCountStarted());
        h.field(DROPPED);
        h.number(t.spanCountDropped());
        h.endObject();
        TransactionContext context = t.context();
        boolean framework = t.frameworkName() != null;
        if (framework || (tc.isSampled() && context.hasContent())) {
            h.field(CONTEXT);
            h.startObject();
            if (tc.isSampled() && context.hasContent()) {
                request(context.request(), h);
                response(context.response(), h);
            }
            if (framework) {
                h.field(SERVICE);
                h.startObject();
                h.field(FRAMEWORK);
                h.startObject();
                h.field(NAME);
                h.string(t.frameworkName());
                h.optionalString(VERSION, t.frameworkVersion());
                h.endObject();
                h.endObject();
            }
            h.endObject();
        }
        h.endObject();
        h.endObject();
        h.newLine();
    }

    private static void request(Request r, JsonHelper h) {
        if (!r.hasContent()) {
            return;
        }
        h.field(REQUEST);
        h.startObject();
        h.field(METHOD);
        h.string(r.method() != null ? r.method() : UNKNOWN_METHOD);
        h.optionalString(HTTP_VERSION, r.httpVersion());
        Url url = r.url();
        if (url.hasContent()) {
            h.field(URL);
            h.startObject();
            h.field(FULL);
            h.string(url.full());
            h.optionalString(PROTOCOL, url.protocol());
            h.optionalString(HOSTNAME, url.hostname());
            if (url.port() > 0) {
                h.field(PORT);
                h.number(url.port());
            }
            h.optionalString(PATHNAME, url.pathname());
            h.optionalString(SEARCH, url.search());
            h.endObject();
        }
        if (r.headers().size() > 0) {
            h.field(HEADERS);
            SerializerSupport.keyValues(r.headers(), h, true);
        }
        if (r.cookies().size() > 0) {
            h.field(COOKIES);
            SerializerSupport.keyValues(r.cookies(), h, false);
        }
        if (r.remoteAddress() != null) {
            h.field(SOCKET);
            h.startObject();
            h.field(REMOTE_ADDRESS);
            h.string(r.remoteAddress());
            h.endObject();
        }
        h.endObject();
    }

    private static void response(Response r, JsonHelper h) {
        if (!r.hasContent()) {
            return;
        }
        h.field(RESPONSE);
        h.startObject();
        h.field(FINISHED);
        h.bool(r.finished());
        h.field(HEADERS_SENT);
        h.bool(r.headersSent());
        if (r.statusCode() > 0) {
            h.field(STATUS_CODE);
            h.number(r.statusCode());
        }
        KeyValues headers = r.headers();
        if (headers.size() > 0) {
            h.field(HEADERS);
            SerializerSupport.keyValues(headers, h, true);
        }
        h.endObject();
    }
}
