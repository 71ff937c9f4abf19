package dev.apmagent.plugin.jdkhttp;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.apmagent.bridge.Bridge;
import dev.apmagent.plugin.HttpClientExits;
import dev.apmagent.plugin.PendingSpans;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.TraceContext;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestTemplate;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both instrumentations installed into this JVM as on attach (the JDK's classes retransformed, advice through the
 * bootstrap bridge), against a real HTTP server on loopback. {@link PluginAgent#stopTracer()} fails a test whose
 * events leaked, were released twice or stayed active. End to end on the real agent jar: JdkHttpClientIT
 * (integration-tests).
 */
class JdkHttpInstrumentationTest {

    private static PluginAgent agent;
    private static TestServer server;
    private static HttpClient client;

    @BeforeAll
    static void install() throws IOException {
        agent = PluginAgent.install(new JdkHttpPlugin());
        assertEquals(0, agent.errors(), "transformation errors");
        server = new TestServer();
        client = HttpClient.newHttpClient();
    }

    @AfterAll
    static void uninstall() {
        server.close();
        agent.uninstall();
    }

    @BeforeEach
    void start() {
        agent.startTracer();
    }

    @AfterEach
    void stop() {
        PendingSpans.scan(System.nanoTime() + 3_600_000_000_000L); // nothing may stay pending after a test
        agent.stopTracer();
    }

    private static String traceparentOf(TraceContext c) {
        char[] chars = new char[55];
        c.writeTraceparent(chars, 0);
        return new String(chars);
    }

    private static HttpURLConnection open(String url) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
        c.setConnectTimeout(5000);
        c.setReadTimeout(5000);
        return c;
    }

    private static String read(InputStream in) throws IOException {
        try (InputStream s = in) {
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Waits (bounded) until the reporter holds {@code count} spans: asynchronous ends happen on other threads. */
    private static List<Span> awaitSpans(int count) throws InterruptedException {
        for (int i = 0; i < 500 && agent.spans().size() < count; i++) {
            Thread.sleep(10);
        }
        return agent.spans();
    }

    private static void assertHttpSpan(Span span, String method, String path, int status, Outcome outcome) {
        assertEquals(method + " 127.0.0.1", span.name().toString());
        assertEquals("external", span.type());
        assertEquals("http", span.subtype());
        assertTrue(span.isExit());
        assertEquals(method, span.context().http().method().toString());
        assertEquals(server.url(path), span.context().http().url().toString());
        assertEquals(status, span.context().http().statusCode());
        assertEquals(outcome, span.outcome());
        assertEquals("127.0.0.1", span.context().destination().address().toString());
        assertEquals(server.port(), span.context().destination().port());
        assertEquals("http", span.context().serviceTarget().type().toString());
        assertEquals("127.0.0.1:" + server.port(), span.context().serviceTarget().name().toString());
        assertEquals("127.0.0.1:" + server.port(), span.context().destination().serviceResource().toString());
    }

    // ------------------------------------------------------------------ HttpURLConnection

    @Test
    void urlConnectionRecordsTheRequestAndCarriesItsContext() throws Exception {
        Transaction[] t = new Transaction[1];
        String body = agent.inTransaction(() -> {
            t[0] = agent.tracer().currentTransaction();
            HttpURLConnection c = open(server.url("/ok?q=1"));
            assertEquals(200, c.getResponseCode());
            return read(c.getInputStream());
        });
        assertEquals("status 200", body, "the application reads its response as ever");
        Span span = agent.onlySpan();
        assertHttpSpan(span, "GET", "/ok?q=1", 200, Outcome.SUCCESS);
        PluginAgent.assertChildOf(t[0], span);
        assertEquals(traceparentOf(span.traceContext()), server.lastTraceparent());
        assertEquals(server.lastTraceparent(), server.elasticTraceparents.stream().reduce((a, b) -> b).get());
    }

    @Test
    void urlConnectionStatusesOfFourAndFiveHundredAreFailuresAndTheExceptionIsTheApplications() throws Exception {
        agent.inTransaction(() -> {
            HttpURLConnection missing = open(server.url("/missing"));
            assertThrows(FileNotFoundException.class, missing::getInputStream);
            HttpURLConnection error = open(server.url("/error"));
            assertEquals(500, error.getResponseCode());
            assertEquals("status 500", read(error.getErrorStream()));
            return null;
        });
        List<Span> spans = agent.spans();
        assertEquals(2, spans.size(), PluginAgent.describe(spans));
        assertHttpSpan(spans.get(0), "GET", "/missing", 404, Outcome.FAILURE);
        assertHttpSpan(spans.get(1), "GET", "/error", 500, Outcome.FAILURE);
        assertTrue(agent.reporter().errors().isEmpty(), "a status is not an error of ours to capture");
    }

    @Test
    void urlConnectionRefusedIsAFailureWithTheExceptionCaptured() throws Exception {
        int port = TestServer.closedPort();
        ConnectException[] thrown = new ConnectException[1];
        agent.inTransaction(() -> {
            HttpURLConnection c = open("http://127.0.0.1:" + port + "/x");
            thrown[0] = assertThrows(ConnectException.class, c::getResponseCode);
            return null;
        });
        Span span = agent.onlySpan();
        assertEquals(Outcome.FAILURE, span.outcome());
        assertEquals(-1, span.context().http().statusCode());
        assertSame(thrown[0], agent.reporter().onlyError().exception(), "captured, and rethrown unchanged");
    }

    @Test
    void urlConnectionReadTimeoutIsAFailure() throws Exception {
        agent.inTransaction(() -> {
            HttpURLConnection c = open(server.url("/slow"));
            c.setReadTimeout(200);
            assertThrows(SocketTimeoutException.class, c::getInputStream);
            return null;
        });
        Span span = agent.onlySpan();
        assertEquals(Outcome.FAILURE, span.outcome());
        assertInstanceOf(SocketTimeoutException.class, agent.reporter().onlyError().exception());
    }

    @Test
    void urlConnectionPostWithBodyIsOneSpanOverSeveralCalls() throws Exception {
        agent.inTransaction(() -> {
            HttpURLConnection c = open(server.url("/ok"));
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            try (OutputStream out = c.getOutputStream()) {
                out.write("payload".getBytes(StandardCharsets.UTF_8));
            }
            assertTrue(agent.spans().isEmpty(), "the request is in progress: its body is written, no response yet");
            assertEquals(200, c.getResponseCode());
            assertEquals(200, c.getResponseCode()); // again: nothing more
            read(c.getInputStream());
            return null;
        });
        Span span = agent.onlySpan();
        assertHttpSpan(span, "POST", "/ok", 200, Outcome.SUCCESS);
        assertEquals(traceparentOf(span.traceContext()), server.lastTraceparent());
    }

    @Test
    void urlConnectionWhoseResponseIsNeverReadEndsAtTheDeadlineAtItsLastActivity() throws Exception {
        HttpURLConnection[] kept = new HttpURLConnection[1];
        agent.inTransaction(() -> {
            kept[0] = open(server.url("/ok"));
            kept[0].connect();
            return null;
        });
        assertTrue(agent.spans().isEmpty(), "pending: nothing read yet");
        PendingSpans.scan(System.nanoTime() + HttpClientExits.PENDING_NANOS - 1_000_000_000L);
        assertTrue(agent.spans().isEmpty(), "before the deadline");
        PendingSpans.scan(System.nanoTime() + HttpClientExits.PENDING_NANOS + 1_000_000_000L);
        Span span = agent.onlySpan();
        assertEquals(Outcome.UNKNOWN, span.outcome());
        assertTrue(span.durationNanos() < 60_000_000_000L, "ended at its last activity, not at the deadline");
        assertEquals(200, kept[0].getResponseCode(), "the application may still read it; the span is not ended twice");
        assertEquals(1, agent.spans().size());
    }

    @Test
    void urlConnectionDisconnectedBeforeItsResponseEndsWithOutcomeUnknown() throws Exception {
        agent.inTransaction(() -> {
            HttpURLConnection c = open(server.url("/ok"));
            c.connect();
            c.disconnect();
            return null;
        });
        assertEquals(Outcome.UNKNOWN, agent.onlySpan().outcome());
    }

    @Test
    void urlConnectionKeepsATraceparentTheApplicationSet() throws Exception {
        String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        agent.inTransaction(() -> {
            HttpURLConnection c = open(server.url("/ok"));
            c.setRequestProperty("traceparent", own);
            return c.getResponseCode();
        });
        assertEquals(own, server.lastTraceparent());
        assertEquals(1, agent.spans().size());
    }

    @Test
    void urlConnectionWithNothingActiveIsUntouched() throws Exception {
        HttpURLConnection c = open(server.url("/ok"));
        assertEquals(200, c.getResponseCode());
        assertEquals("none", server.lastTraceparent());
        assertTrue(agent.spans().isEmpty());
    }

    @Test
    void restTemplateOverUrlConnectionIsOneSpanPerRequest() throws Exception {
        RestTemplate rest = new RestTemplate(); // SimpleClientHttpRequestFactory: HttpURLConnection
        agent.inTransaction(() -> {
            assertEquals("status 200", rest.getForObject(server.url("/ok"), String.class));
            assertEquals("status 200", rest.postForObject(server.url("/ok"), "payload", String.class));
            HttpClientErrorException e = assertThrows(HttpClientErrorException.class,
                    () -> rest.getForObject(server.url("/missing"), String.class));
            assertEquals(404, e.getStatusCode().value());
            return null;
        });
        List<Span> spans = agent.spans();
        assertEquals(3, spans.size(), PluginAgent.describe(spans));
        assertHttpSpan(spans.get(0), "GET", "/ok", 200, Outcome.SUCCESS);
        assertHttpSpan(spans.get(1), "POST", "/ok", 200, Outcome.SUCCESS);
        assertHttpSpan(spans.get(2), "GET", "/missing", 404, Outcome.FAILURE);
        assertEquals(traceparentOf(spans.get(2).traceContext()), server.lastTraceparent());
        assertTrue(agent.reporter().errors().isEmpty(), "RestTemplate's 404 exception is the application's");
    }

    // ------------------------------------------------------------------ java.net.http.HttpClient

    @Test
    void httpClientSendRecordsTheRequestAndCarriesItsContext() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url("/ok"))).header("x-app", "1").build();
        HttpResponse<String> response = agent.inTransaction(() -> client.send(request, HttpResponse.BodyHandlers.ofString()));
        assertEquals("status 200", response.body());
        Span span = agent.onlySpan();
        assertHttpSpan(span, "GET", "/ok", 200, Outcome.SUCCESS);
        assertEquals(traceparentOf(span.traceContext()), server.lastTraceparent());
        assertEquals("1", response.request().headers().firstValue("x-app").orElse(null), "the copy keeps the application's headers");
        assertFalse(request.headers().firstValue("traceparent").isPresent(), "the application's request is unchanged");
    }

    @Test
    void httpClientSendFailures() throws Exception {
        int port = TestServer.closedPort();
        agent.inTransaction(() -> {
            assertThrows(ConnectException.class, () -> client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/x")).build(), HttpResponse.BodyHandlers.discarding()));
            assertThrows(HttpTimeoutException.class, () -> client.send(
                    HttpRequest.newBuilder(URI.create(server.url("/slow"))).timeout(Duration.ofMillis(200)).build(),
                    HttpResponse.BodyHandlers.discarding()));
            assertEquals(500, client.send(HttpRequest.newBuilder(URI.create(server.url("/error"))).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
            return null;
        });
        List<Span> spans = agent.spans();
        assertEquals(3, spans.size(), PluginAgent.describe(spans));
        for (Span span : spans) {
            assertEquals(Outcome.FAILURE, span.outcome());
        }
        assertEquals(500, spans.get(2).context().http().statusCode());
        assertEquals(2, agent.reporter().errors().size(), "the two exceptions are captured, the 500 is not an exception");
    }

    @Test
    void httpClientSendAsyncEndsOnTheCompletingThread() throws Exception {
        CompletableFuture<HttpResponse<String>> future = agent.inTransaction(() -> client.sendAsync(
                HttpRequest.newBuilder(URI.create(server.url("/missing"))).build(), HttpResponse.BodyHandlers.ofString()));
        assertEquals(404, future.join().statusCode());
        Span span = awaitSpans(1).get(0);
        assertHttpSpan(span, "GET", "/missing", 404, Outcome.FAILURE);
        assertEquals(traceparentOf(span.traceContext()), server.lastTraceparent());
    }

    @Test
    void httpClientSendAsyncCallbacksThatThrowChangeNothing() throws Exception {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        CompletableFuture<Object> chained = agent.inTransaction(() -> client.sendAsync(
                        HttpRequest.newBuilder(URI.create(server.url("/ok"))).build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> {
                    throw new IllegalStateException("the application's callback");
                }));
        CompletionException e = assertThrows(CompletionException.class, chained::join);
        seen.set(e.getCause());
        assertEquals("the application's callback", seen.get().getMessage(), "the application sees its own exception");
        Span span = awaitSpans(1).get(0);
        assertEquals(200, span.context().http().statusCode());
        assertEquals(Outcome.SUCCESS, span.outcome());
        assertTrue(agent.reporter().errors().isEmpty());
    }

    @Test
    void httpClientSendAsyncRefused() throws Exception {
        int port = TestServer.closedPort();
        CompletableFuture<HttpResponse<Void>> future = agent.inTransaction(() -> client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/x")).build(), HttpResponse.BodyHandlers.discarding()));
        CompletionException e = assertThrows(CompletionException.class, future::join);
        assertInstanceOf(ConnectException.class, e.getCause());
        Span span = awaitSpans(1).get(0);
        assertEquals(Outcome.FAILURE, span.outcome());
        for (int i = 0; i < 100 && agent.reporter().errors().isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertInstanceOf(ConnectException.class, agent.reporter().onlyError().exception(), "unwrapped from CompletionException");
    }

    @Test
    void httpClientKeepsATraceparentTheApplicationSet() throws Exception {
        String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        agent.inTransaction(() -> client.send(HttpRequest.newBuilder(URI.create(server.url("/ok"))).header("traceparent", own).build(),
                HttpResponse.BodyHandlers.discarding()));
        assertEquals(own, server.lastTraceparent());
        assertEquals(1, agent.spans().size());
    }

    @Test
    void httpClientWithNothingActiveIsUntouched() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url("/ok"))).build();
        HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
        assertFalse(response.request().headers().firstValue("traceparent").isPresent());
        assertEquals("none", server.lastTraceparent());
        assertTrue(agent.spans().isEmpty());
    }

    // ------------------------------------------------------------------ HTTPS, both clients

    @Test
    void httpsIsRecordedAndCarriesTheContextWithBothClients(@TempDir Path dir) throws Exception {
        Path keyStoreFile = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keyStoreFile.toString(),
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String keytoolOutput = read(keytool.getInputStream());
        assertEquals(0, keytool.waitFor(), keytoolOutput);
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStoreFile)) {
            keyStore.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(keyStore, "changeit".toCharArray());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keyStore);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(keys.getKeyManagers(), trust.getTrustManagers(), null);

        HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        https.createContext("/", exchange -> {
            seen.add(String.valueOf(exchange.getRequestHeaders().getFirst("traceparent")));
            byte[] body = "secure".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        https.start();
        String url = "https://127.0.0.1:" + https.getAddress().getPort() + "/secure";
        try {
            HttpClient tlsClient = HttpClient.newBuilder().sslContext(tls).build();
            agent.inTransaction(() -> {
                HttpsURLConnection c = (HttpsURLConnection) new URL(url).openConnection();
                c.setSSLSocketFactory(tls.getSocketFactory());
                assertEquals(200, c.getResponseCode());
                assertEquals("secure", read(c.getInputStream()));
                assertEquals("secure", tlsClient.send(HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
                return null;
            });
        } finally {
            https.stop(0);
        }
        List<Span> spans = agent.spans();
        assertEquals(2, spans.size(), PluginAgent.describe(spans));
        List<String> expected = new ArrayList<>();
        for (Span span : spans) {
            assertEquals("GET 127.0.0.1", span.name().toString());
            assertEquals(url, span.context().http().url().toString());
            assertEquals(200, span.context().http().statusCode());
            assertEquals(https.getAddress().getPort(), span.context().destination().port());
            expected.add(traceparentOf(span.traceContext()));
        }
        assertEquals(expected, new ArrayList<>(seen), "each request carried its own span's context");
    }

    // ------------------------------------------------------------------ cost with nothing active

    @Test
    void theHandlersAllocateNothingWithNothingActive() throws Exception {
        HttpURLConnection connection = open(server.url("/ok"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url("/ok"))).build();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long allocated = 0;
        for (int round = 0; round < 2; round++) {
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 50_000; i++) {
                // exactly what the inlined advice runs
                Object state = Bridge.enter(Bridge.URLCONNECTION_INPUT, connection, Boolean.FALSE, null);
                Bridge.exit(Bridge.URLCONNECTION_INPUT, state, connection, state == null ? null : Integer.valueOf(200), null, null);
                state = Bridge.enter(Bridge.HTTPCLIENT_SEND, client, request, null);
                Object replaced = Bridge.replacement(Bridge.HTTPCLIENT_SEND, state, request);
                Bridge.exit(Bridge.HTTPCLIENT_SEND, state, client, null, replaced, null);
            }
            allocated = mx.getThreadAllocatedBytes(tid) - before;
        }
        assertTrue(allocated < 1024, "allocated " + allocated + " bytes over 50k untraced rounds");
        assertNull(Bridge.enter(Bridge.URLCONNECTION_INPUT, connection, Boolean.FALSE, null));
    }
}
