package dev.apmagent.plugin.apache;

import dev.apmagent.plugin.apache.helper4.Apache4Http;
import dev.apmagent.plugin.apache.helper5.Apache5Http;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.http.HttpHost;
import org.apache.http.HttpVersion;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpRequestWrapper;
import org.apache.http.message.BasicHttpRequest;
import org.apache.http.nio.client.methods.HttpAsyncMethods;
import org.apache.http.nio.protocol.HttpAsyncRequestProducer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the two readers make of the requests and responses of their library line (the newest of each, 4.5 and 5.6). */
class ApacheRequestReadersTest {

    private final Apache4Http v4 = new Apache4Http();
    private final Apache5Http v5 = new Apache5Http();

    @Test
    void aWrappedAbsoluteRequestIsReadFromItsUri() {
        Object request = HttpRequestWrapper.wrap(new HttpGet("http://user:secret@[::1]:8080/orders/7?page=2"));
        assertTrue(v4.traceable(request));
        assertEquals("GET", v4.method(request));
        assertEquals("http", v4.scheme(request));
        assertEquals("::1", v4.host(request), "no brackets, no user-info");
        assertEquals(8080, v4.port(request));
        assertEquals("/orders/7", v4.path(request));
        assertEquals("page=2", v4.query(request));
    }

    @Test
    void aRelativeRequestSentToATargetIsReadFromTheTarget() {
        Object request = HttpRequestWrapper.wrap(new BasicHttpRequest("POST", "/x?y=1", HttpVersion.HTTP_1_1),
                new HttpHost("example.com", -1, "https"));
        assertEquals("POST", v4.method(request));
        assertEquals("https", v4.scheme(request));
        assertEquals("example.com", v4.host(request));
        assertEquals(-1, v4.port(request));
        assertEquals("/x", v4.path(request));
        assertEquals("y=1", v4.query(request));
    }

    @Test
    void theHeadersGoIntoTheWrapperNotTheApplicationsRequest() {
        HttpGet own = new HttpGet("http://example.com/");
        HttpRequestWrapper wrapper = HttpRequestWrapper.wrap(own);
        assertNull(v4.header(wrapper, "traceparent"));
        v4.set(wrapper, "traceparent", "00-abc");
        assertEquals("00-abc", v4.header(wrapper, "traceparent"));
        assertNull(own.getFirstHeader("traceparent"));
    }

    @Test
    void anAsyncProducerIsReadThroughTheRequestItHolds() {
        HttpGet request = new HttpGet("/a");
        HttpAsyncRequestProducer producer = HttpAsyncMethods.create(new HttpHost("svc", 9000), request);
        assertTrue(v4.traceable(producer));
        assertEquals("svc", v4.host(producer));
        assertEquals(9000, v4.port(producer));
        assertEquals("http", v4.scheme(producer));
        v4.set(producer, "traceparent", "00-def");
        assertEquals("00-def", request.getFirstHeader("traceparent").getValue(), "the request the client sends");
        assertFalse(v4.traceable("not a request"));
    }

    @Test
    void statusCodesOfFourDotX() {
        assertEquals(404, v4.statusCode(new org.apache.http.message.BasicHttpResponse(HttpVersion.HTTP_1_1, 404, "Not Found")));
        assertEquals(-1, v4.statusCode("a consumer's own result"));
    }

    @Test
    void aFiveDotXRequestCarriesItsPartsApart() {
        Object request = new org.apache.hc.client5.http.classic.methods.HttpGet("https://example.com:8443/x?y=2");
        assertTrue(v5.traceable(request));
        assertEquals("GET", v5.method(request));
        assertEquals("https", v5.scheme(request));
        assertEquals("example.com", v5.host(request));
        assertEquals(8443, v5.port(request));
        assertEquals("/x?y=2", v5.path(request));
        assertNull(v5.query(request), "in the path");
        v5.set(request, "traceparent", "00-ghi");
        assertEquals("00-ghi", v5.header(request, "traceparent"));
    }

    @Test
    void statusCodesOfFiveDotX() {
        assertEquals(500, v5.statusCode(new BasicHttpResponse(500)));
        assertEquals(201, v5.statusCode(new Message<>(new BasicHttpResponse(201), "body")));
        assertEquals(-1, v5.statusCode("a consumer's own result"));
    }
}
