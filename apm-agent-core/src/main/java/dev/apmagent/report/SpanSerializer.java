package dev.apmagent.report;

import dev.apmagent.trace.Db;
import dev.apmagent.trace.Destination;
import dev.apmagent.trace.Http;
import dev.apmagent.trace.ServiceTarget;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.SpanContext;
import dev.apmagent.trace.TraceContext;

/**
 * Writes one {@code {"span":{...}}} line. Reporter thread only; allocation-free. type, subtype and action go in
 * their own fields (the server also accepts the legacy dotted "db.mysql.query" form; separate fields need no
 * string building).
 */
final class SpanSerializer {

    private static final byte[] SPAN = JsonHelper.name("span");
    private static final byte[] TIMESTAMP = JsonHelper.name("timestamp");
    private static final byte[] NAME = JsonHelper.name("name");
    private static final byte[] ID = JsonHelper.name("id");
    private static final byte[] TRACE_ID = JsonHelper.name("trace_id");
    private static final byte[] TRANSACTION_ID = JsonHelper.name("transaction_id");
    private static final byte[] PARENT_ID = JsonHelper.name("parent_id");
    private static final byte[] TYPE = JsonHelper.name("type");
    private static final byte[] SUBTYPE = JsonHelper.name("subtype");
    private static final byte[] ACTION = JsonHelper.name("action");
    private static final byte[] DURATION = JsonHelper.name("duration");
    private static final byte[] OUTCOME = JsonHelper.name("outcome");
    private static final byte[] SAMPLE_RATE = JsonHelper.name("sample_rate");
    private static final byte[] CONTEXT = JsonHelper.name("context");
    private static final byte[] DB = JsonHelper.name("db");
    private static final byte[] INSTANCE = JsonHelper.name("instance");
    private static final byte[] STATEMENT = JsonHelper.name("statement");
    private static final byte[] USER = JsonHelper.name("user");
    private static final byte[] ROWS_AFFECTED = JsonHelper.name("rows_affected");
    private static final byte[] DESTINATION = JsonHelper.name("destination");
    private static final byte[] ADDRESS = JsonHelper.name("address");
    private static final byte[] PORT = JsonHelper.name("port");
    private static final byte[] SERVICE = JsonHelper.name("service");
    private static final byte[] RESOURCE = JsonHelper.name("resource");
    private static final byte[] TARGET = JsonHelper.name("target");
    private static final byte[] HTTP = JsonHelper.name("http");
    private static final byte[] URL = JsonHelper.name("url");
    private static final byte[] METHOD = JsonHelper.name("method");
    private static final byte[] RESPONSE = JsonHelper.name("response");
    private static final byte[] STATUS_CODE = JsonHelper.name("status_code");
    private static final byte[] EMPTY_STRING = JsonHelper.ascii("\"\"");

    private SpanSerializer() {
    }

    static void serialize(Span s, JsonHelper h) {
        TraceContext tc = s.traceContext();
        h.startObject();
        h.field(SPAN);
        h.startObject();
        h.field(TIMESTAMP);
        h.number(s.timestampMicros());
        h.field(NAME);
        h.string(s.name());
        h.field(ID);
        h.hex64(tc.id());
        h.field(TRACE_ID);
        h.hex128(tc.traceIdHigh(), tc.traceIdLow());
        if (s.transactionId() != 0) {
            h.field(TRANSACTION_ID);
            h.hex64(s.transactionId());
        }
        h.field(PARENT_ID);
        h.hex64(tc.parentId() != 0 ? tc.parentId() : s.transactionId());
        h.field(TYPE);
        h.string(s.type() != null ? s.type() : TransactionSerializer.DEFAULT_TYPE);
        h.optionalString(SUBTYPE, s.subtype());
        h.optionalString(ACTION, s.action());
        h.field(DURATION);
        h.durationMillis(s.durationNanos());
        h.field(OUTCOME);
        h.raw(SerializerSupport.outcome(s.outcome()));
        if (tc.hasSampleRate()) {
            h.field(SAMPLE_RATE);
            h.number(tc.sampleRate());
        }
        SpanContext context = s.context();
        if (context.hasContent()) {
            h.field(CONTEXT);
            h.startObject();
            db(context.db(), h);
            destination(context.destination(), h);
            serviceTarget(context.serviceTarget(), h);
            http(context.http(), h);
            h.endObject();
        }
        h.endObject();
        h.endObject();
        h.newLine();
    }

    private static void db(Db db, JsonHelper h) {
        if (!db.hasContent()) {
            return;
        }
        h.field(DB);
        h.startObject();
        h.optionalString(INSTANCE, db.instance());
        if (db.statement() != null) {
            h.field(STATEMENT);
            h.string(db.statement(), JsonHelper.LONG_TEXT_MAX);
        }
        h.optionalString(TYPE, db.type());
        h.optionalString(USER, db.user());
        if (db.rowsAffected() >= 0) {
            h.field(ROWS_AFFECTED);
            h.number(db.rowsAffected());
        }
        h.endObject();
    }

    private static void destination(Destination d, JsonHelper h) {
        if (!d.hasContent()) {
            return;
        }
        h.field(DESTINATION);
        h.startObject();
        h.optionalString(ADDRESS, d.address());
        if (d.port() > 0) {
            h.field(PORT);
            h.number(d.port());
        }
        if (d.serviceResource() != null) {
            // service.resource is required inside service; name and type are deprecated but older servers want them
            h.field(SERVICE);
            h.startObject();
            h.field(RESOURCE);
            h.string(d.serviceResource());
            h.field(NAME);
            h.raw(EMPTY_STRING);
            h.field(TYPE);
            h.raw(EMPTY_STRING);
            h.endObject();
        }
        h.endObject();
    }

    private static void serviceTarget(ServiceTarget t, JsonHelper h) {
        if (!t.hasContent() || (t.type() == null && t.name() == null)) {
            return;
        }
        h.field(SERVICE);
        h.startObject();
        h.field(TARGET);
        h.startObject();
        h.optionalString(TYPE, t.type());
        h.optionalString(NAME, t.name());
        h.endObject();
        h.endObject();
    }

    private static void http(Http http, JsonHelper h) {
        if (!http.hasContent()) {
            return;
        }
        h.field(HTTP);
        h.startObject();
        h.optionalString(URL, http.url());
        h.optionalString(METHOD, http.method());
        if (http.statusCode() > 0) {
            h.field(RESPONSE);
            h.startObject();
            h.field(STATUS_CODE);
            h.number(http.statusCode());
            h.endObject();
        }
        h.endObject();
    }
}
