package dev.apmagent.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;

/**
 * Realistic events for the serializer benchmarks, made by a real {@link Tracer} and kept (never released) by a
 * capturing reporter: an HTTP transaction with request and response context, a JDBC span with statement, destination
 * and service target, and an error with a stack trace of the depth this method is called at (at most
 * stack_trace_limit frames).
 */
final class SampleEvents implements Reporter {

    final List<Transaction> transactions = new ArrayList<Transaction>();
    final List<Span> spans = new ArrayList<Span>();
    final List<ErrorEvent> errors = new ArrayList<ErrorEvent>();

    static SampleEvents create() {
        SampleEvents events = new SampleEvents();
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.OBJECT_POOL.key(), "none");
        Tracer tracer = new Tracer(Config.ofParsed(options), events);

        Transaction t = tracer.startRootTransaction();
        t.setName("GET /api/orders/{id}");
        t.setType("request");
        t.setResult("HTTP 2xx");
        t.setFramework("Servlet API", "6.0");
        t.context().request().setMethod("GET");
        t.context().request().setHttpVersion("1.1");
        t.context().request().setRemoteAddress("10.1.2.3");
        t.context().request().url().set("http", "shop.example.com", 8080, "/api/orders/42", "expand=items");
        t.context().request().headers().add("Accept", "application/json");
        t.context().request().headers().add("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) benchmark");
        t.context().response().setStatusCode(200);
        t.context().response().setFinished(true, true);
        t.context().response().headers().add("Content-Type", "application/json");
        tracer.activate(t);

        Span s = tracer.createSpan();
        s.setName("SELECT FROM orders");
        s.setType("db", "postgresql", "query");
        s.setExit(true);
        s.context().db().setType("sql");
        s.context().db().setInstance("shop");
        s.context().db().setUser("app");
        s.context().db().setStatement("SELECT o.id, o.total, o.status FROM orders o WHERE o.customer_id = ? AND o.id = ?");
        s.context().db().setRowsAffected(1);
        s.context().destination().setAddress("db.internal", 5432);
        s.context().destination().setServiceResource("postgresql/shop");
        s.context().serviceTarget().set("postgresql", "shop");
        s.end();

        tracer.captureException(new IllegalStateException("order 42 has no items"), t);
        tracer.deactivate(t);
        t.end();
        return events;
    }

    @Override
    public boolean report(Transaction transaction) {
        transactions.add(transaction);
        return true;
    }

    @Override
    public boolean report(Span span) {
        spans.add(span);
        return true;
    }

    @Override
    public boolean report(ErrorEvent error) {
        errors.add(error);
        return true;
    }
}
