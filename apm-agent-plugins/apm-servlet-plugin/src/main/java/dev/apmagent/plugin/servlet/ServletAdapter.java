package dev.apmagent.plugin.servlet;

import dev.apmagent.plugin.Propagation;
import dev.apmagent.trace.KeyValues;
import dev.apmagent.trace.Transaction;

/**
 * What {@link ServletHelper} needs from a servlet API, as the agent's class loader can express it: requests and
 * responses are passed as {@code Object}. One implementation per namespace ({@code javax.servlet},
 * {@code jakarta.servlet}) lives in a helper package and is defined next to the container's servlet API by
 * {@link dev.apmagent.plugin.LibraryHelper}. Implementations do not throw for the container's own objects; the helper
 * guards every call anyway.
 */
public interface ServletAdapter extends Propagation.HeaderGetter<Object> {

    int DISPATCH_REQUEST = 0;
    int DISPATCH_FORWARD = 1;
    int DISPATCH_INCLUDE = 2;
    int DISPATCH_ASYNC = 3;
    int DISPATCH_ERROR = 4;

    /** True when {@code request} is an HTTP request of this API (non-HTTP servlet requests are not traced). */
    boolean isHttp(Object request, Object response);

    int dispatcherType(Object request);

    String method(Object request);

    String requestUri(Object request);

    String queryString(Object request);

    String scheme(Object request);

    String serverName(Object request);

    int serverPort(Object request);

    String protocol(Object request);

    String remoteAddr(Object request);

    /**
     * Copies request headers and cookies into the transaction's context (bounded, redacted by {@code names}): from the
     * container's own buffers where it has a {@link ContainerHeaders} fast path, else through the servlet API.
     */
    void captureRequestHeaders(Object request, KeyValues headers, KeyValues cookies, FieldNames names);

    int status(Object response);

    boolean isCommitted(Object response);

    void captureResponseHeaders(Object response, KeyValues headers, FieldNames names);

    boolean isAsyncStarted(Object request);

    /** Registers a listener that ends {@code transaction} when the async request completes; false when it could not. */
    boolean endOnAsyncCompletion(Object request, Transaction transaction);

    Object getAttribute(Object request, String name);

    void setAttribute(Object request, String name, Object value);

    void removeAttribute(Object request, String name);
}
