package dev.apmagent.plugin.servlet;

import dev.apmagent.trace.KeyValues;

/**
 * Reads headers from a container's own structures instead of through the servlet API, which builds a String per name
 * and value. Implementations live in a helper package (defined next to the container by
 * {@link dev.apmagent.plugin.LibraryHelper}, like the {@link ServletAdapter}s that use them) and are created only where
 * the container's classes are visible ({@link #load}). They may throw; the adapter then counts a failure, resets what
 * was captured and uses the servlet API for that request.
 */
public interface ContainerHeaders {

    /**
     * Captures the request's headers into {@code headers} and the cookies of its {@code Cookie} headers into
     * {@code cookies}, bounded by their capacity and redacted by {@code names}; false (and nothing captured) when
     * {@code request} is not one this container's fast path can read (a wrapper, another container's request).
     */
    boolean captureRequest(Object request, KeyValues headers, KeyValues cookies, FieldNames names);

    /** As {@link #captureRequest} for the headers of a response. */
    boolean captureResponse(Object response, KeyValues headers, FieldNames names);

    /**
     * The fast path for the container seen by {@code helperLoader} (the loader of a servlet adapter), or null where
     * there is none: today Tomcat's ({@code dev.apmagent.plugin.servlet.tomcat.TomcatHeaders}), when its connector
     * classes are visible. Never throws.
     */
    static ContainerHeaders load(ClassLoader helperLoader) {
        try {
            Class.forName("org.apache.catalina.connector.RequestFacade", false, helperLoader);
            Class.forName("org.apache.tomcat.util.http.MimeHeaders", false, helperLoader);
        } catch (Throwable notTomcat) {
            return null;
        }
        try {
            Class<?> type = Class.forName("dev.apmagent.plugin.servlet.tomcat.TomcatHeaders", true, helperLoader);
            return (ContainerHeaders) type.getDeclaredConstructor().newInstance();
        } catch (Throwable t) {
            return null; // a Tomcat whose classes differ from those we know: the servlet API serves
        }
    }
}
