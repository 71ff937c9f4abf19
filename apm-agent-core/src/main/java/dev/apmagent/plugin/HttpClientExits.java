package dev.apmagent.plugin;

import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Http;
import dev.apmagent.trace.HttpOptions;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.SpanContext;
import dev.apmagent.trace.TraceParentHeader;
import dev.apmagent.trace.Tracer;

/**
 * Exit spans and trace-context propagation for outgoing HTTP requests, for every HTTP client plugin (the JDK's
 * clients, Apache HttpClient, OkHttp, and what is built on them). A plugin holds one instance per request type in a
 * {@code static final} field, made from its {@link HttpClientRequest} reader and its {@link PluginHealth}:
 *
 * <pre>{@code
 * static final HttpClientExits<Request> exits = new HttpClientExits<Request>(OkHttpRequests.INSTANCE, health);
 *
 * // enter advice (through the helper)           // exit advice
 * HttpClientCall call = exits.enter(request);     exits.exit(call, response == null ? -1 : response.code(), thrown);
 * }</pre>
 *
 * <h2>Enter: {@link #enter}</h2>
 * <ol>
 *   <li><b>Whether to trace</b>: a tracer runs and an event is active on this thread; otherwise null after two reads,
 *   nothing allocated, the request not even looked at.</li>
 *   <li><b>One span per logical request.</b> If an HTTP call is already in progress on this thread (the same client
 *   calling itself, or a client wrapping another: RestTemplate, RestClient or Feign over HttpURLConnection, OkHttp or
 *   Apache; an interceptor chain; a retry or redirect inside a client), this call is nested: it records nothing. So
 *   does a call under any other exit span ({@link ExitCallGuard}).</li>
 *   <li><b>The outermost call</b> starts the exit span, a child of the active event: name {@code GET host} (the method
 *   bucketed by {@link HttpMethods}), type {@code external}, subtype {@code http}, {@code context.http.method} and
 *   {@code url} (assembled from the parts and sanitized on the reporter thread: user-info and secret parameters
 *   redacted), {@code context.destination.address/port}, {@code service.target} {@code http}/{@code host:port} and
 *   {@code destination.service.resource} {@code host:port} ({@link ServiceTargets}); the span is then active until
 *   {@link #exit} (or {@link #exitPending}), so what the client calls inside is nested.</li>
 *   <li><b>Trace context, once per physical request</b>: every call, outermost or nested, makes sure the request it
 *   holds carries {@code traceparent} and {@code tracestate} ({@code elastic-apm-traceparent} too when
 *   {@code use_elastic_traceparent_header} is on) of the active event: the exit span, the outer client's span for a
 *   wrapped client, or the parent when no span is recorded (not sampled, {@code transaction_max_spans}), so the
 *   downstream service still joins the trace. A request that already carries a {@code traceparent} (set by the
 *   application, or by an outer layer) is left exactly as it is.</li>
 * </ol>
 *
 * <h2>End</h2>
 * <ul>
 *   <li>Synchronous: {@link #exit} with the status code (-1 when there is no response) and what the call threw. The
 *   outcome is {@code failure} for a status of 400 and above (4xx and 5xx: the Elastic spec for client spans) and for
 *   a thrown exception, which is captured as an error of the span (the advice rethrows it unchanged: the kit only
 *   reads it); else {@code success}.</li>
 *   <li>Asynchronous, or a request made over several library calls: {@link #exitPending} at the exit of the call that
 *   sent it deactivates the span and hands it to a {@link PendingHttpExit}, which the response's callback completes
 *   on whatever thread it runs ({@link PendingHttpExit#complete}). Exactly one of the callback and the deadline scan
 *   ({@link PendingSpans}) ends the span.</li>
 * </ul>
 * Every method is an exception barrier: what fails (the plugin's reader included) is counted on the plugin's
 * {@link PluginHealth} and never reaches the application. Shared counters, under {@code plugin: http-client}:
 * {@code stale_calls} ({@link ExitCallGuard}) and {@code pending_unwatched} (pending requests the full
 * {@link PendingSpans} table could not take: they end only when their response comes).
 *
 * @param <R> the plugin's request type (see {@link HttpClientRequest})
 */
public final class HttpClientExits<R> {

    /** How long a pending request ({@link #exitPending}) may take before the deadline scan ends its span, in minutes. */
    public static final int PENDING_MINUTES = 5;
    /** {@link #PENDING_MINUTES} in nanoseconds, as {@link #exitPending} takes it: every HTTP client plugin's deadline. */
    public static final long PENDING_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(PENDING_MINUTES);

    public static final String SPAN_TYPE = "external";
    public static final String SPAN_SUBTYPE = "http";
    /** {@code service.target.type} of every HTTP exit span, derived once by the shared rules. */
    public static final String TARGET_TYPE;

    static {
        InferredTarget target = new InferredTarget();
        ServiceTargets.infer(true, SPAN_TYPE, SPAN_SUBTYPE, null, null, ServiceTargets.CONTEXT_HTTP, "h:1", target);
        TARGET_TYPE = target.type();
    }

    static final PluginHealth kitHealth = PluginHealth.of("http-client");
    private static final PluginHealth.Counter unwatched = kitHealth.counter("pending_unwatched");
    /** One guard for every HTTP client plugin: a client wrapping another is nested in it. */
    private static final ExitCallGuard<HttpClientCall> calls = new ExitCallGuard<HttpClientCall>(kitHealth.counter("stale_calls")) {
        @Override
        protected HttpClientCall newCall() {
            return new HttpClientCall();
        }
    };
    private static final PluginSettings<Boolean> elasticHeader = new PluginSettings<Boolean>(new PluginSettings.Reader<Boolean>() {
        @Override
        public Boolean read(dev.apmagent.config.Config config) {
            return config.get(HttpOptions.USE_ELASTIC_TRACEPARENT_HEADER);
        }
    });

    private final HttpClientRequest<R> requests;
    private final PluginHealth health;

    /**
     * @param requests how the plugin reads its requests and writes headers into them
     * @param health   where the plugin's failures are counted
     */
    public HttpClientExits(HttpClientRequest<R> requests, PluginHealth health) {
        this.requests = requests;
        this.health = health;
    }

    /**
     * Whether a tracer runs and an event is active on this thread: what {@link #enter} checks first, for a plugin that
     * must prepare something before it calls {@link #enter} (a holder for an immutable request) and allocates nothing
     * otherwise.
     */
    public static boolean anythingActive() {
        Tracer tracer = GlobalTracer.get();
        return tracer != null && tracer.active() != null;
    }

    /**
     * Enters an HTTP call that sends {@code request} (see the class description).
     *
     * @return null when nothing is traced (nothing active, or the call is under a non-HTTP exit span: its request
     * still got the trace context); else the thread's call, outermost or {@link HttpClientCall#isNested() nested},
     * which the plugin hands to {@link #exit} or {@link #exitPending} exactly once
     */
    public HttpClientCall enter(R request) {
        Tracer tracer = GlobalTracer.get();
        if (tracer == null) {
            return null;
        }
        AbstractSpan active = tracer.active();
        if (active == null) {
            return null;
        }
        HttpClientCall call;
        try {
            call = calls.enter(active);
        } catch (Throwable t) {
            health.failure();
            return null;
        }
        if (call == null || call.isNested()) {
            propagate(active, request); // under another exit span, or inside our own: the physical request carries it
            return call;
        }
        Span span = null;
        try {
            span = tracer.createSpan(active);
            if (span != null) {
                describeRequest(span, request);
            }
            propagate(span != null ? span : active, request);
            if (span != null) {
                call.start(tracer, span);
            }
            return call;
        } catch (Throwable t) {
            health.failure();
            if (span != null && call.span() != span) {
                span.end(); // created, never activated: never leave an event of ours open
            }
            leave(call, null);
            return null;
        }
    }

    /**
     * Leaves a call that {@link #enter} returned (nothing for null): the outermost call's span gets the status code
     * ({@code statusCode} &gt; 0) and its outcome, captures {@code thrown} (if not null) and ends.
     */
    public void exit(HttpClientCall call, int statusCode, Throwable thrown) {
        if (call == null) {
            return;
        }
        try {
            Span span = call.isNested() ? null : call.span();
            if (span != null) {
                setStatus(span, statusCode);
            }
        } catch (Throwable t) {
            health.failure();
        }
        leave(call, thrown);
    }

    /**
     * Leaves a call that {@link #enter} returned without ending its span: for an asynchronous request (the response
     * comes to a callback on another thread) or one made over several calls of the library. The span is deactivated
     * and watched ({@link PendingSpans}).
     *
     * @param timeoutNanos how long after now the request may take before the scan ends its span (outcome unknown)
     * @param endAtLastActivity whether a span the scan ends gets the duration up to {@link PendingSpan#touch its last
     *                          sign of progress} (a request nobody finished reading), or up to the deadline (a
     *                          response that never came)
     * @return the pending request, which the plugin completes once ({@link PendingHttpExit#complete}); null for a
     * nested call, or when the outermost call records no span
     */
    public PendingHttpExit exitPending(HttpClientCall call, long timeoutNanos, boolean endAtLastActivity) {
        if (call == null) {
            return null;
        }
        Span span;
        try {
            span = call.detach();
        } catch (Throwable t) {
            health.failure();
            return null;
        }
        if (span == null) {
            return null;
        }
        PendingHttpExit pending = new PendingHttpExit(span, timeoutNanos, endAtLastActivity, health);
        if (!PendingSpans.watch(pending)) {
            unwatched.increment();
        }
        return pending;
    }

    private void describeRequest(Span span, R request) {
        span.setType(SPAN_TYPE, SPAN_SUBTYPE, null);
        span.setExit(true);
        String method = requests.method(request);
        if (method == null) {
            method = "GET";
        }
        String scheme = requests.scheme(request);
        if (scheme == null) {
            scheme = "http";
        }
        String host = requests.host(request);
        int port = requests.port(request);
        StringBuilder name = span.nameBuilder().append(HttpMethods.forName(method)).append(' ');
        SpanContext context = span.context();
        Http http = context.http();
        http.setMethod(method);
        if (host == null) {
            name.append("unknown host");
            return;
        }
        name.append(host);
        http.setUrl(scheme, host, port, requests.path(request), requests.query(request));
        int effectivePort = port >= 0 ? port : Http.defaultPort(scheme);
        context.destination().setAddress(host, effectivePort);
        StringBuilder target = context.serviceTarget().nameBuilder(TARGET_TYPE);
        Http.appendHost(target, host);
        if (effectivePort > 0) {
            target.append(':').append(effectivePort);
        }
        context.destination().setServiceResource(target); // for HTTP the resource is host:port alone (shared rules)
    }

    private void propagate(AbstractSpan context, R request) {
        try {
            if (requests.header(request, TraceParentHeader.TRACEPARENT) == null) {
                Propagation.inject(context, request, requests, elasticHeader.get());
            }
        } catch (Throwable t) {
            health.failure();
        }
    }

    private void leave(HttpClientCall call, Throwable thrown) {
        try {
            call.exit(thrown);
        } catch (Throwable t) {
            health.failure();
        }
    }

    /** The status code and the outcome it gives a client span: 4xx and 5xx are failures. Nothing for -1 or 0. */
    static void setStatus(Span span, int statusCode) {
        if (statusCode > 0) {
            span.context().http().setStatusCode(statusCode);
            span.setOutcome(statusCode >= 400 ? Outcome.FAILURE : Outcome.SUCCESS);
        }
    }

    /**
     * An HTTP request whose span ends after the call that sent it returned (see {@link HttpClientExits#exitPending}):
     * completed once, from any thread, by the response's callback or the library call that reads the response.
     */
    public static final class PendingHttpExit extends PendingSpan {

        private final boolean endAtLastActivity;
        private final PluginHealth health;

        PendingHttpExit(Span span, long timeoutNanos, boolean endAtLastActivity, PluginHealth health) {
            super(span, timeoutNanos);
            this.endAtLastActivity = endAtLastActivity;
            this.health = health;
        }

        /**
         * Ends the span with the response's status code (-1 when none) or the failure (captured as an error of the
         * span), unless it was ended already (by an earlier completion or the deadline scan): then nothing happens.
         *
         * @return whether this call ended the span
         */
        public boolean complete(int statusCode, Throwable thrown) {
            Span span = (Span) take();
            if (span == null) {
                return false;
            }
            try {
                setStatus(span, statusCode);
            } catch (Throwable t) {
                health.failure();
            } finally {
                SpanExit.endInactive(GlobalTracer.get(), span, thrown);
            }
            return true;
        }

        @Override
        protected void onExpired(AbstractSpan span) {
            // no response: outcome unknown (the Elastic spec's "aborted"); the span ends whatever happens here
            if (endAtLastActivity) {
                span.end(lastActivityNanos());
            } else {
                span.end();
            }
        }
    }
}
