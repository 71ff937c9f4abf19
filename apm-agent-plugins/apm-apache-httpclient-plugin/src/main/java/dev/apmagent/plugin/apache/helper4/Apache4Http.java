package dev.apmagent.plugin.apache.helper4;

import dev.apmagent.plugin.apache.ApacheHttp;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.HttpResponse;
import org.apache.http.StatusLine;
import org.apache.http.client.methods.HttpRequestWrapper;
import org.apache.http.client.methods.HttpUriRequest;
import org.apache.http.nio.protocol.BasicAsyncRequestProducer;

import java.net.URI;

/**
 * {@link ApacheHttp} over HttpClient 4.3-4.5 and HttpAsyncClient 4.1 (httpcore 4.3+). Compiled against 4.5.14; every
 * method it calls exists in 4.3 except {@code HttpRequestWrapper.getTarget()} (4.4), which it calls only where it
 * exists. The request it reads is one of:
 * <ul>
 *   <li>an {@code HttpRequestWrapper} (the classic exec chain): the URI the application gave, absolute unless the
 *   application passed the target host apart (then the wrapper's target, 4.4 and later);</li>
 *   <li>a {@code BasicAsyncRequestProducer} (the async client; what every {@code execute} overload but the producer's
 *   own makes): its request and target, read without side effects;</li>
 *   <li>any other {@code HttpRequest}: the URI of its request line.</li>
 * </ul>
 * Headers are read and written on that request ({@code getFirstHeader}, {@code setHeader}).
 */
public final class Apache4Http extends ApacheHttp {

    private static final boolean WRAPPER_HAS_TARGET = hasTarget();

    private static boolean hasTarget() {
        try {
            HttpRequestWrapper.class.getMethod("getTarget");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    @Override
    public boolean traceable(Object requestOrProducer) {
        return requestOrProducer instanceof HttpRequest || requestOrProducer instanceof BasicAsyncRequestProducer;
    }

    // A request is tested first, everywhere: an application of the classic client alone has no httpcore-nio, and the
    // JVM resolves BasicAsyncRequestProducer only where an instruction that names it runs.

    private static HttpRequest request(Object o) {
        if (o instanceof HttpRequest) {
            return (HttpRequest) o;
        }
        return ((BasicAsyncRequestProducer) o).generateRequest(); // returns the request it holds, nothing else
    }

    private static HttpHost target(Object o) {
        if (o instanceof HttpRequestWrapper) {
            return WRAPPER_HAS_TARGET ? ((HttpRequestWrapper) o).getTarget() : null;
        }
        if (o instanceof HttpRequest) {
            return null;
        }
        return ((BasicAsyncRequestProducer) o).getTarget();
    }

    /** The request's URI; a wrapper of a request that has none (a {@code BasicHttpRequest}) answers null: its line's. */
    private static URI uri(HttpRequest request) {
        URI uri = request instanceof HttpUriRequest ? ((HttpUriRequest) request).getURI() : null;
        return uri != null ? uri : URI.create(request.getRequestLine().getUri());
    }

    @Override
    public String method(Object o) {
        return request(o).getRequestLine().getMethod();
    }

    @Override
    public String scheme(Object o) {
        URI uri = uri(request(o));
        if (uri.getHost() != null) {
            return uri.getScheme();
        }
        HttpHost target = target(o);
        return target == null ? null : target.getSchemeName();
    }

    @Override
    public String host(Object o) {
        URI uri = uri(request(o));
        String host = uri.getHost();
        if (host != null) {
            return stripBrackets(host);
        }
        HttpHost target = target(o);
        return target == null ? null : stripBrackets(target.getHostName());
    }

    @Override
    public int port(Object o) {
        URI uri = uri(request(o));
        if (uri.getHost() != null) {
            return uri.getPort();
        }
        HttpHost target = target(o);
        return target == null ? -1 : target.getPort();
    }

    @Override
    public String path(Object o) {
        return uri(request(o)).getRawPath();
    }

    @Override
    public String query(Object o) {
        return uri(request(o)).getRawQuery();
    }

    @Override
    public String header(Object o, String name) {
        Header header = request(o).getFirstHeader(name);
        return header == null ? null : header.getValue();
    }

    @Override
    public void set(Object o, String name, String value) {
        request(o).setHeader(name, value);
    }

    @Override
    public int statusCode(Object responseOrResult) {
        if (responseOrResult instanceof HttpResponse) {
            StatusLine status = ((HttpResponse) responseOrResult).getStatusLine();
            return status == null ? -1 : status.getStatusCode();
        }
        return -1;
    }
}
