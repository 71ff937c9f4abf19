package dev.apmagent.plugin.apache.helper5;

import dev.apmagent.plugin.apache.ApacheHttp;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.net.URIAuthority;

/**
 * {@link ApacheHttp} over HttpClient 5 (httpcore5 5.0 and later), classic and async: both exec chains hand their
 * handlers an {@code org.apache.hc.core5.http.HttpRequest}, which carries its scheme, authority and path (path and
 * query together) apart. Compiled against 5.6.5; every method it calls exists in 5.0. Headers are read and written
 * on that request ({@code getFirstHeader}, {@code setHeader}).
 */
public final class Apache5Http extends ApacheHttp {

    @Override
    public boolean traceable(Object request) {
        return request instanceof HttpRequest;
    }

    @Override
    public String method(Object request) {
        return ((HttpRequest) request).getMethod();
    }

    @Override
    public String scheme(Object request) {
        return ((HttpRequest) request).getScheme();
    }

    @Override
    public String host(Object request) {
        URIAuthority authority = ((HttpRequest) request).getAuthority();
        return authority == null ? null : stripBrackets(authority.getHostName());
    }

    @Override
    public int port(Object request) {
        URIAuthority authority = ((HttpRequest) request).getAuthority();
        return authority == null ? -1 : authority.getPort();
    }

    @Override
    public String path(Object request) {
        return ((HttpRequest) request).getPath();
    }

    @Override
    public String query(Object request) {
        return null; // getPath() includes it
    }

    @Override
    public String header(Object request, String name) {
        Header header = ((HttpRequest) request).getFirstHeader(name);
        return header == null ? null : header.getValue();
    }

    @Override
    public void set(Object request, String name, String value) {
        ((HttpRequest) request).setHeader(name, value);
    }

    @Override
    public int statusCode(Object responseOrResult) {
        Object response = responseOrResult instanceof Message ? ((Message<?, ?>) responseOrResult).getHead() : responseOrResult;
        return response instanceof HttpResponse ? ((HttpResponse) response).getCode() : -1;
    }
}
