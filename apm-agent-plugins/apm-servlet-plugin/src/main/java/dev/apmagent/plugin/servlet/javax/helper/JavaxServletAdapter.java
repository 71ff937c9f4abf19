package dev.apmagent.plugin.servlet.javax.helper;

import dev.apmagent.plugin.servlet.ContainerHeaders;
import dev.apmagent.plugin.servlet.FieldNames;
import dev.apmagent.plugin.servlet.ServletAdapter;
import dev.apmagent.plugin.servlet.ServletHelper;
import dev.apmagent.trace.KeyValues;
import dev.apmagent.trace.Transaction;
import dev.apmagent.plugin.Propagation;

import javax.servlet.AsyncContext;
import javax.servlet.AsyncEvent;
import javax.servlet.AsyncListener;
import javax.servlet.DispatcherType;
import javax.servlet.http.Cookie;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * {@link ServletAdapter} over the {@code javax} servlet API. Defined next to the container's servlet API by
 * {@link dev.apmagent.plugin.LibraryHelper}. The build generates the {@code jakarta} twin of this package by
 * replacing the namespace (see this module's pom), so the two can never drift apart.
 *
 * <p>Headers and cookies are read from the container's own buffers where a {@link ContainerHeaders} fast path exists
 * for it (Tomcat), which builds no String on the request's thread; for other containers, for requests the application
 * wrapped, and for a request whose fast path failed (counted), through the servlet API.
 */
public final class JavaxServletAdapter implements ServletAdapter {

    /** Tomcat's headers, when this adapter's loader sees Tomcat; else null. */
    private final ContainerHeaders container = ContainerHeaders.load(JavaxServletAdapter.class.getClassLoader());

    @Override
    public boolean isHttp(Object request, Object response) {
        return request instanceof HttpServletRequest && response instanceof HttpServletResponse;
    }

    @Override
    public int dispatcherType(Object request) {
        DispatcherType type = ((HttpServletRequest) request).getDispatcherType();
        switch (type) {
            case FORWARD:
                return DISPATCH_FORWARD;
            case INCLUDE:
                return DISPATCH_INCLUDE;
            case ASYNC:
                return DISPATCH_ASYNC;
            case ERROR:
                return DISPATCH_ERROR;
            default:
                return DISPATCH_REQUEST;
        }
    }

    @Override
    public String method(Object request) {
        return ((HttpServletRequest) request).getMethod();
    }

    @Override
    public String requestUri(Object request) {
        return ((HttpServletRequest) request).getRequestURI();
    }

    @Override
    public String queryString(Object request) {
        return ((HttpServletRequest) request).getQueryString();
    }

    @Override
    public String scheme(Object request) {
        return ((HttpServletRequest) request).getScheme();
    }

    @Override
    public String serverName(Object request) {
        return ((HttpServletRequest) request).getServerName();
    }

    @Override
    public int serverPort(Object request) {
        return ((HttpServletRequest) request).getServerPort();
    }

    @Override
    public String protocol(Object request) {
        return ((HttpServletRequest) request).getProtocol();
    }

    @Override
    public String remoteAddr(Object request) {
        return ((HttpServletRequest) request).getRemoteAddr();
    }

    @Override
    public String first(Object request, String name) {
        return ((HttpServletRequest) request).getHeader(name);
    }

    @Override
    public void all(Object request, String name, Propagation.HeaderSink sink) {
        Enumeration<String> values = ((HttpServletRequest) request).getHeaders(name);
        while (values != null && values.hasMoreElements()) {
            sink.accept(values.nextElement());
        }
    }

    @Override
    public void captureRequestHeaders(Object request, KeyValues headers, KeyValues cookies, FieldNames sanitizer) {
        if (container != null) {
            try {
                if (container.captureRequest(request, headers, cookies, sanitizer)) {
                    return;
                }
            } catch (Throwable t) {
                ServletHelper.failure();
                headers.reset();
                cookies.reset();
            }
        }
        HttpServletRequest r = (HttpServletRequest) request;
        Enumeration<String> names = r.getHeaderNames();
        while (names != null && names.hasMoreElements()) {
            String name = names.nextElement();
            if (name.equalsIgnoreCase("cookie")) {
                continue; // captured as cookies below, each sanitized by its own name
            }
            if (!addAll(headers, name, r.getHeaders(name), sanitizer)) {
                break;
            }
        }
        Cookie[] all = r.getCookies();
        if (all != null) {
            for (Cookie cookie : all) {
                if (!cookies.add(cookie.getName(), ServletHelper.sanitized(sanitizer, cookie.getName(), cookie.getValue()))) {
                    break;
                }
            }
        }
    }

    @Override
    public int status(Object response) {
        return ((HttpServletResponse) response).getStatus();
    }

    @Override
    public boolean isCommitted(Object response) {
        return ((HttpServletResponse) response).isCommitted();
    }

    @Override
    public void captureResponseHeaders(Object response, KeyValues headers, FieldNames sanitizer) {
        if (container != null) {
            try {
                if (container.captureResponse(response, headers, sanitizer)) {
                    return;
                }
            } catch (Throwable t) {
                ServletHelper.failure();
                headers.reset();
            }
        }
        HttpServletResponse r = (HttpServletResponse) response;
        Collection<String> names = r.getHeaderNames();
        if (names == null) {
            return;
        }
        for (String name : names) {
            Collection<String> values = r.getHeaders(name);
            if (!addAll(headers, name, values == null ? null : Collections.enumeration(values), sanitizer)) {
                break;
            }
        }
    }

    /**
     * Every value of a header, not only its first; a name already captured is skipped, since Tomcat lists a repeated
     * response header's name once per value. Returns false when {@code headers} is full.
     */
    private static boolean addAll(KeyValues headers, String name, Enumeration<String> values, FieldNames sanitizer) {
        for (int i = 0; i < headers.size(); i++) {
            if (headers.key(i).equalsIgnoreCase(name)) {
                return true;
            }
        }
        while (values != null && values.hasMoreElements()) {
            if (!headers.add(name, ServletHelper.sanitized(sanitizer, name, values.nextElement()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean isAsyncStarted(Object request) {
        return ((HttpServletRequest) request).isAsyncStarted();
    }

    @Override
    public boolean endOnAsyncCompletion(Object request, Transaction transaction) {
        AsyncContext context = ((HttpServletRequest) request).getAsyncContext();
        if (context == null) {
            return false;
        }
        context.addListener(new EndListener(this, transaction, request, context.getResponse()));
        return true;
    }

    @Override
    public Object getAttribute(Object request, String name) {
        return ((HttpServletRequest) request).getAttribute(name);
    }

    @Override
    public void setAttribute(Object request, String name, Object value) {
        ((HttpServletRequest) request).setAttribute(name, value);
    }

    @Override
    public void removeAttribute(Object request, String name) {
        ((HttpServletRequest) request).removeAttribute(name);
    }

    /**
     * Ends the transaction of an asynchronous request when the response completes. A timeout or an error only records
     * what happened: the container still dispatches to the error page (which sets the final status) and then
     * completes, so ending earlier would report a status the client never saw.
     */
    static final class EndListener implements AsyncListener {
        private static final AtomicIntegerFieldUpdater<EndListener> ENDED =
                AtomicIntegerFieldUpdater.newUpdater(EndListener.class, "ended");

        private final ServletAdapter adapter;
        private final Transaction transaction;
        private final Object request;
        private final Object response;
        private volatile Throwable error;
        private volatile boolean timedOut;
        private volatile int ended;

        EndListener(ServletAdapter adapter, Transaction transaction, Object request, Object response) {
            this.adapter = adapter;
            this.transaction = transaction;
            this.request = request;
            this.response = response;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            if (ENDED.compareAndSet(this, 0, 1)) {
                ServletHelper.asyncEnd(adapter, transaction, request, response, error, timedOut);
            }
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            timedOut = true;
        }

        @Override
        public void onError(AsyncEvent event) {
            error = event.getThrowable();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            AsyncContext context = event.getAsyncContext();
            if (context != null) {
                context.addListener(this); // a re-started async request keeps our listener
            }
        }
    }
}
