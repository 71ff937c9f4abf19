package dev.apmagent.plugin.servlet;

import dev.apmagent.config.WildcardMatcher;
import dev.apmagent.config.WildcardMatcherList;
import dev.apmagent.plugin.HttpMethods;
import dev.apmagent.plugin.LibraryHelper;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.plugin.Propagation;
import dev.apmagent.plugin.SpanExit;
import dev.apmagent.plugin.servlet.ServletPlugin.Settings;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Request;
import dev.apmagent.trace.Response;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import dev.apmagent.trace.UrlSanitizer;

/**
 * Everything the servlet and filter advice do, for both servlet namespaces; the namespace-specific access goes
 * through a {@link ServletAdapter}. Every entry point is an exception barrier: the application never sees a failure
 * of ours (it is counted in the plugin's {@link PluginHealth}), and its requests and responses are only read, never
 * changed.
 *
 * <p>Lifecycle: the first {@code Filter.doFilter} or {@code Servlet.service} of a REQUEST dispatch on a thread starts
 * the transaction and activates it; nested calls (the filter chain, forwards, includes) only name it; the outermost
 * exit ends it, unless the request went asynchronous, in which case a listener ends it when the response completes
 * and ASYNC dispatches re-activate it on their thread.
 *
 * <p>Names are built from the request, that is from the client's input, so their cardinality is bounded: the method
 * goes through {@link HttpMethods} ({@code HelloServlet#doOther}, {@code OTHER /path}, {@code OTHER unknown route} for
 * any non-standard method) and path names leave out path parameters ({@code ;jsessionid=...}).
 */
public final class ServletHelper {

    /** Request attribute holding the transaction of an asynchronous request. */
    public static final String TRANSACTION_ATTRIBUTE = "dev.apmagent.transaction";

    private static final String[] RESULTS = {"HTTP 1xx", "HTTP 2xx", "HTTP 3xx", "HTTP 4xx", "HTTP 5xx"};
    private static final String UNKNOWN_ROUTE = " unknown route";

    private static final ClassValue<String> simpleNames = new ClassValue<String>() {
        @Override
        protected String computeValue(Class<?> type) {
            String simple = type.getSimpleName();
            if (!simple.isEmpty()) {
                return simple;
            }
            String name = type.getName(); // anonymous and hidden classes have no simple name
            return name.substring(name.lastIndexOf('.') + 1);
        }
    };

    private static final PluginHealth health = PluginHealth.of(ServletPlugin.NAME);

    private ServletHelper() {
    }

    // ------------------------------------------------------------------ advice entry points

    /**
     * Enter of {@code Servlet.service} / {@code Filter.doFilter}.
     *
     * @param adapters         the adapter of the instrumented class's servlet namespace
     * @param instrumentedType the class the advice runs in (its loader sees the servlet API)
     * @param servlet          the servlet, or null for a filter
     * @return what the exit needs: the transaction this call activated (started here, or re-activated by an ASYNC
     * dispatch), or null
     */
    public static Object enter(LibraryHelper<ServletAdapter> adapters, Class<?> instrumentedType, Object servlet, Object request,
                               Object response) {
        try {
            Tracer tracer = GlobalTracer.get();
            if (tracer == null) {
                return null;
            }
            ServletAdapter adapter = adapters.get(instrumentedType);
            if (adapter == null || !adapter.isHttp(request, response)) {
                return null;
            }
            AbstractSpan active = tracer.active();
            if (active != null) {
                Transaction transaction = active.transaction();
                if (servlet != null && transaction != null) {
                    nameByServlet(transaction, servlet, adapter, request, ServletPlugin.settings.get());
                }
                return null;
            }
            int dispatch = adapter.dispatcherType(request);
            if (dispatch == ServletAdapter.DISPATCH_ASYNC) {
                Object attribute = adapter.getAttribute(request, TRANSACTION_ATTRIBUTE);
                if (attribute instanceof Transaction) {
                    tracer.activate((Transaction) attribute);
                    return attribute;
                }
                return null;
            }
            if (dispatch != ServletAdapter.DISPATCH_REQUEST) {
                return null;
            }
            Settings s = ServletPlugin.settings.get();
            String uri = adapter.requestUri(request);
            if (uri != null && s.ignoreUrls.matches(uri)) {
                return null;
            }
            return start(tracer, adapter, servlet, request, s);
        } catch (Throwable t) {
            health.failure();
            return null;
        }
    }

    /** Starts and activates the request's transaction; if filling it fails, it is still ended, so nothing leaks. */
    private static Transaction start(Tracer tracer, ServletAdapter adapter, Object servlet, Object request, Settings s) {
        Transaction transaction = Propagation.startTransaction(tracer, request, adapter);
        try {
            transaction.setType("request");
            if (servlet != null) {
                nameByServlet(transaction, servlet, adapter, request, s);
            }
            if (transaction.isSampled()) {
                captureRequest(transaction.context().request(), adapter, request, s);
            }
        } catch (Throwable t) {
            health.failure();
            transaction.end();
            return null;
        }
        tracer.activate(transaction);
        return transaction;
    }

    /**
     * Exit of {@code Servlet.service} / {@code Filter.doFilter}; {@code scope} is what {@link #enter} returned. The
     * outcome comes from the HTTP status; the transaction is ended here unless the request went asynchronous.
     */
    public static void exit(LibraryHelper<ServletAdapter> adapters, Class<?> instrumentedType, Object scope, Object request,
                            Object response, Throwable thrown) {
        if (!(scope instanceof Transaction)) {
            return;
        }
        Transaction transaction = (Transaction) scope;
        Tracer tracer = GlobalTracer.get(); // null when the agent stopped meanwhile: the transaction is then only ended
        boolean endNow = true;
        try {
            ServletAdapter adapter = adapters.get(instrumentedType);
            if (adapter.getAttribute(request, TRANSACTION_ATTRIBUTE) == transaction) {
                endNow = false; // an ASYNC dispatch re-activated it; the listener ends it when the response completes
            } else if (adapter.isAsyncStarted(request)) {
                transaction.incrementReferences(); // held by the request attribute and the listener until completion
                adapter.setAttribute(request, TRANSACTION_ATTRIBUTE, transaction);
                if (adapter.endOnAsyncCompletion(request, transaction)) {
                    endNow = false;
                } else {
                    adapter.removeAttribute(request, TRANSACTION_ATTRIBUTE);
                    transaction.decrementReferences();
                }
            }
            if (endNow) {
                describeResult(transaction, adapter, request, response, thrown, false);
            }
        } catch (Throwable t) {
            health.failure();
        } finally {
            if (endNow) {
                SpanExit.end(tracer, transaction, thrown);
            } else if (tracer != null) {
                tracer.captureException(thrown, transaction); // the status the client gets decides the outcome later
                tracer.deactivate(transaction);
            }
        }
    }

    /**
     * Ends an asynchronous request's transaction; called once by the listener when the response completes.
     *
     * @param error    the failure the container reported on error or timeout, or null
     * @param timedOut whether the request timed out
     */
    public static void asyncEnd(ServletAdapter adapter, Transaction transaction, Object request, Object response, Throwable error,
                                boolean timedOut) {
        try {
            adapter.removeAttribute(request, TRANSACTION_ATTRIBUTE);
            describeResult(transaction, adapter, request, response, error, timedOut);
        } catch (Throwable t) {
            health.failure();
        } finally {
            try {
                SpanExit.endInactive(GlobalTracer.get(), transaction, error);
            } finally {
                transaction.decrementReferences();
            }
        }
    }

    /** Wraps a task given to {@code AsyncContext.start} so that it runs with the request's transaction active. */
    public static Runnable wrap(Runnable task) {
        try {
            Tracer tracer = GlobalTracer.get();
            if (task == null || tracer == null || task instanceof ContextRunnable) {
                return task;
            }
            AbstractSpan active = tracer.active();
            return active == null ? task : new ContextRunnable(task, active);
        } catch (Throwable t) {
            health.failure();
            return task;
        }
    }

    // ------------------------------------------------------------------ internals

    private static void nameByServlet(Transaction transaction, Object servlet, ServletAdapter adapter, Object request, Settings s) {
        if (transaction.name().length() > 0) {
            return; // the first servlet names the transaction; forwards and includes do not rename it
        }
        StringBuilder name = transaction.nameBuilder();
        String method = adapter.method(request);
        if (s.usePathAsName) {
            appendPathName(name, method, adapter.requestUri(request), s.urlGroups);
            return;
        }
        name.append(simpleNames.get(servlet.getClass())).append("#do").append(HttpMethods.capitalized(method));
    }

    /**
     * {@code <METHOD> <path or url group>} into the empty builder {@code name}: the method bucketed by
     * {@link HttpMethods} (null: GET), path parameters ({@code ;name=value}, as in {@code ;jsessionid=...}) left out of
     * the path before it is matched against the url groups, the whole cut to the name's maximum length.
     */
    static void appendPathName(StringBuilder name, String method, String path, WildcardMatcherList urlGroups) {
        String m = nameMethod(method);
        if (path == null) {
            name.append(m).append(" /");
            return;
        }
        CharSequence plain = path;
        if (path.indexOf(';') >= 0) {
            // the path without its parameters, written into the name builder itself, where it is matched, then moved
            // behind the method: no copy of the path is allocated
            name.setLength(0);
            appendWithoutPathParameters(name, path);
            plain = name;
        }
        WildcardMatcher group = urlGroups.firstMatch(plain);
        if (plain == name) {
            if (group != null) {
                name.setLength(0);
            } else {
                name.insert(0, ' ').insert(0, m);
                cut(name);
                return;
            }
        }
        name.append(m).append(' ');
        CharSequence part = group != null ? group.pattern() : path;
        int room = AbstractSpan.MAX_NAME_LENGTH - name.length();
        name.append(part, 0, Math.max(0, Math.min(part.length(), room)));
    }

    /** The method as a name shows it: bucketed by {@link HttpMethods}; GET when the container gives none. */
    private static String nameMethod(String method) {
        return method == null ? "GET" : HttpMethods.forName(method);
    }

    private static void appendWithoutPathParameters(StringBuilder out, String path) {
        boolean inParameter = false;
        for (int i = 0; i < path.length() && out.length() <= AbstractSpan.MAX_NAME_LENGTH; i++) {
            char c = path.charAt(i);
            if (c == ';') {
                inParameter = true;
            } else if (c == '/') {
                inParameter = false;
            }
            if (!inParameter) {
                out.append(c);
            }
        }
    }

    private static void cut(StringBuilder name) {
        if (name.length() > AbstractSpan.MAX_NAME_LENGTH) {
            name.setLength(AbstractSpan.MAX_NAME_LENGTH);
        }
    }

    /**
     * Result, outcome (from the status the client gets, before {@link SpanExit} would judge by the exception), a name
     * if no servlet gave one, and the response context; the caller ends the transaction.
     */
    private static void describeResult(Transaction transaction, ServletAdapter adapter, Object request, Object response,
                                       Throwable thrown, boolean failed) {
        int status = adapter.status(response);
        if (thrown != null && (status < 400 || !adapter.isCommitted(response))) {
            status = 500; // the container turns an uncaught exception into a 500
        }
        if (status >= 100 && status < 600) {
            transaction.setResult(RESULTS[status / 100 - 1]);
        }
        transaction.setOutcome(failed || thrown != null || status >= 500 ? Outcome.FAILURE : Outcome.SUCCESS);
        Settings s = ServletPlugin.settings.get();
        if (transaction.name().length() == 0) {
            String method = adapter.method(request);
            if (s.usePathAsName) {
                appendPathName(transaction.nameBuilder(), method, adapter.requestUri(request), s.urlGroups);
            } else {
                transaction.nameBuilder().append(nameMethod(method)).append(UNKNOWN_ROUTE);
            }
        }
        if (transaction.isSampled()) {
            Response r = transaction.context().response();
            r.setStatusCode(status);
            r.setFinished(true, adapter.isCommitted(response));
            if (s.captureHeaders) {
                adapter.captureResponseHeaders(response, r.headers(), s.sanitizer);
            }
        }
    }

    private static void captureRequest(Request r, ServletAdapter adapter, Object request, Settings s) {
        r.setMethod(adapter.method(request));
        r.setHttpVersion(httpVersion(adapter.protocol(request)));
        r.setRemoteAddress(adapter.remoteAddr(request));
        r.url().set(adapter.scheme(request), adapter.serverName(request), adapter.serverPort(request), adapter.requestUri(request),
                adapter.queryString(request));
        if (s.captureHeaders) {
            adapter.captureRequestHeaders(request, r.headers(), r.cookies(), s.sanitizer);
        }
    }

    static String httpVersion(String protocol) {
        if (protocol == null) {
            return null;
        }
        if (protocol.equals("HTTP/1.1")) {
            return "1.1";
        }
        if (protocol.equals("HTTP/1.0")) {
            return "1.0";
        }
        if (protocol.equals("HTTP/2.0") || protocol.equals("HTTP/2")) {
            return "2";
        }
        return protocol.startsWith("HTTP/") ? protocol.substring(5) : protocol;
    }

    /** The value to capture for a header, cookie or form field: the value itself, or [REDACTED]. */
    public static CharSequence sanitized(FieldNames names, String name, CharSequence value) {
        return names.isSensitive(name) ? UrlSanitizer.REDACTED : value;
    }

    /** Counts a failure the adapters caught themselves (a fast path they fell back from). */
    public static void failure() {
        health.failure();
    }

    /** Runs a task with the event that was active when it was handed to {@code AsyncContext.start}. */
    static final class ContextRunnable implements Runnable {
        private final Runnable task;
        private final AbstractSpan context;

        ContextRunnable(Runnable task, AbstractSpan context) {
            context.incrementReferences(); // the request may end before the task runs: its event must not be recycled
            this.task = task;
            this.context = context;
        }

        @Override
        public void run() {
            Tracer tracer = GlobalTracer.get();
            if (tracer != null) {
                tracer.activate(context);
            }
            try {
                task.run();
            } finally {
                if (tracer != null) {
                    tracer.deactivate(context);
                }
                context.decrementReferences();
            }
        }
    }
}
