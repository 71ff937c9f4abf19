package dev.apmagent.plugin.okhttp;

import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.TraceContext;
import dev.apmagent.trace.Transaction;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.lang.reflect.Method;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real instrumentation on the real OkHttp of this execution (3.0.0, 3.14.9, 4.12.0, 5.5.1), against a loopback
 * server: the span of each outcome, the trace context each physical request carries, one span per logical request,
 * {@code enqueue}, and nothing at all when nothing is active.
 */
class OkHttpInstrumentationTest {

    static final PluginAgent agent = PluginAgent.install(new OkHttpPlugin());
    static LoopbackServer server;
    static OkHttpClient client;

    @BeforeAll
    static void startServer() throws IOException {
        server = new LoopbackServer();
        client = new OkHttpClient.Builder().readTimeout(5, TimeUnit.SECONDS).build();
    }

    @AfterAll
    static void stopServer() {
        server.close();
        agent.uninstall();
    }

    @BeforeEach
    void start() {
        agent.startTracer();
        server.takeTraceparents();
    }

    @AfterEach
    void stop() throws InterruptedException {
        awaitIdle(client);
        agent.stopTracer();
    }

    @Test
    void runsTheOkHttpThisExecutionClaims() throws Exception {
        assertThat(OkHttpVersions.running()).isEqualTo(OkHttpVersions.expected());
        assertThat(agent.errorsSinceInstall()).isZero();
    }

    @Test
    void synchronousCallIsAnExitSpanAndItsRequestCarriesTheSpan() throws Exception {
        Transaction[] transaction = new Transaction[1];
        String body = agent.inTransaction(() -> {
            transaction[0] = agent.tracer().currentTransaction();
            return body(client.newCall(new Request.Builder().url(server.url("/ok?q=1")).build()).execute());
        });
        assertThat(body).isEqualTo("hello");
        Span span = agent.onlySpan();
        PluginAgent.assertChildOf(transaction[0], span);
        assertThat(span.name().toString()).isEqualTo("GET 127.0.0.1");
        assertThat(span.type()).isEqualTo("external");
        assertThat(span.subtype()).isEqualTo("http");
        assertThat(span.isExit()).isTrue();
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(span.context().http().method().toString()).isEqualTo("GET");
        assertThat(span.context().http().statusCode()).isEqualTo(200);
        assertThat(span.context().http().url().toString()).isEqualTo(server.url("/ok?q=1"));
        assertThat(span.context().destination().address().toString()).isEqualTo("127.0.0.1");
        assertThat(span.context().destination().port()).isEqualTo(server.port());
        assertThat(span.context().serviceTarget().type().toString()).isEqualTo("http");
        assertThat(span.context().serviceTarget().name().toString()).isEqualTo("127.0.0.1:" + server.port());
        assertThat(span.context().destination().serviceResource().toString()).isEqualTo("127.0.0.1:" + server.port());
        assertThat(server.takeTraceparents()).containsExactly(traceparentOf(span.traceContext()));
    }

    @Test
    void credentialsInTheUrlAreNotRecorded() throws Exception {
        String url = "http://user:secret@127.0.0.1:" + server.port() + "/ok?password=hunter2&page=2";
        agent.inTransaction(() -> body(client.newCall(new Request.Builder().url(url).build()).execute()));
        Span span = agent.onlySpan();
        assertThat(span.context().http().url().toString())
                .isEqualTo("http://127.0.0.1:" + server.port() + "/ok?password=[REDACTED]&page=2");
    }

    @Test
    void theSchemesDefaultPortReadsAsNoPort() throws Exception {
        Request request = new Request.Builder().url("https://example.com/a").build();
        OkHttpApi api = OkHttpHelper.apis.get(client.newCall(request).getClass());
        assertThat(api.port(request)).isEqualTo(-1);
        assertThat(api.port(new Request.Builder().url("https://example.com:8443/a").build())).isEqualTo(8443);
        assertThat(api.query(request)).isNull();
        assertThat(api.path(request)).isEqualTo("/a");
    }

    @Test
    void errorStatusesAreFailures() throws Exception {
        for (int status : new int[]{404, 500}) {
            int code = agent.inTransaction(() -> {
                Response response = client.newCall(new Request.Builder().url(server.url("/status/" + status)).build()).execute();
                response.body().close();
                return response.code();
            });
            assertThat(code).isEqualTo(status);
        }
        List<Span> spans = agent.spans();
        assertThat(spans).hasSize(2);
        assertThat(spans.get(0).context().http().statusCode()).isEqualTo(404);
        assertThat(spans.get(1).context().http().statusCode()).isEqualTo(500);
        assertThat(spans).allSatisfy(s -> assertThat(s.outcome()).isEqualTo(Outcome.FAILURE));
        assertThat(agent.reporter().errors()).isEmpty();
    }

    @Test
    void connectionRefusedIsRethrownUnchangedAndCaptured() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        agent.inTransaction(() -> {
            try {
                client.newCall(new Request.Builder().url("http://127.0.0.1:" + closedPort + "/").build()).execute();
            } catch (IOException e) {
                thrown.set(e);
            }
            return null;
        });
        assertThat(thrown.get()).isInstanceOf(ConnectException.class);
        Span span = agent.onlySpan();
        assertThat(span.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(span.context().http().statusCode()).isEqualTo(-1);
        ErrorEvent error = agent.reporter().onlyError();
        assertThat(error.exception()).isSameAs(thrown.get());
        assertThat(error.parentId()).isEqualTo(span.traceContext().id());
    }

    @Test
    void readTimeoutIsAFailure() throws Exception {
        OkHttpClient impatient = client.newBuilder().readTimeout(200, TimeUnit.MILLISECONDS).build();
        assertThatThrownBy(() -> agent.inTransaction(() -> impatient.newCall(new Request.Builder().url(server.url("/slow")).build()).execute()))
                .isInstanceOf(SocketTimeoutException.class);
        Span span = agent.onlySpan();
        assertThat(span.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(agent.reporter().onlyError().exception()).isInstanceOf(SocketTimeoutException.class);
        awaitIdle(impatient);
    }

    @Test
    void spanEndsWithTheResponseHeadersEvenIfTheBodyIsNeverRead() throws Exception {
        Response unread = agent.inTransaction(() -> client.newCall(new Request.Builder().url(server.url("/ok")).build()).execute());
        try {
            Span span = agent.onlySpan();
            assertThat(span.isEnded()).isTrue();
            assertThat(span.context().http().statusCode()).isEqualTo(200);
        } finally {
            unread.body().close();
        }
    }

    @Test
    void redirectsAndInterceptorRetriesAreOneSpanAndEveryPhysicalRequestCarriesIt() throws Exception {
        OkHttpClient retrying = client.newBuilder().addInterceptor(chain -> {
            chain.proceed(chain.request()).body().close(); // an application interceptor that tries twice
            return chain.proceed(chain.request());
        }).build();
        agent.inTransaction(() -> {
            return body(retrying.newCall(new Request.Builder().url(server.url("/redirect")).build()).execute());
        });
        Span span = agent.onlySpan();
        assertThat(span.context().http().statusCode()).isEqualTo(200);
        String expected = traceparentOf(span.traceContext());
        assertThat(server.takeTraceparents()).containsExactly(expected, expected, expected, expected); // 2 x (302, 200)
    }

    @Test
    void aCallMadeInsideAnotherIsNotASecondSpan() throws Exception {
        OkHttpClient auditing = client.newBuilder().addInterceptor(chain -> {
            client.newCall(new Request.Builder().url(server.url("/ok?audit")).build()).execute().body().close();
            return chain.proceed(chain.request());
        }).build();
        agent.inTransaction(() -> {
            auditing.newCall(new Request.Builder().url(server.url("/ok")).build()).execute().body().close();
            return null;
        });
        Span span = agent.onlySpan();
        assertThat(span.context().http().url().toString()).isEqualTo(server.url("/ok"));
        String expected = traceparentOf(span.traceContext());
        assertThat(server.takeTraceparents()).containsExactly(expected, expected);
    }

    @Test
    void aTraceparentSetByTheApplicationIsKept() throws Exception {
        String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        agent.inTransaction(() -> {
            client.newCall(new Request.Builder().url(server.url("/ok")).header("traceparent", own).build()).execute().body().close();
            return null;
        });
        assertThat(agent.spans()).hasSize(1);
        assertThat(server.takeTraceparents()).containsExactly(own);
    }

    /**
     * A retry by a new call of {@code call.request()}, or by {@code call.clone()} (3.x from 3.1 on: 3.0's {@code Call}
     * has none): each call sends its own span's context, not the earlier call's.
     */
    @Test
    void aCallMadeAgainWithTheSameRequestCarriesItsOwnSpan() throws Exception {
        Call first = client.newCall(new Request.Builder().url(server.url("/ok")).build());
        Method cloneMethod = cloneMethod();
        agent.inTransaction(() -> {
            body(first.execute());
            body(client.newCall(first.request()).execute());
            if (cloneMethod != null) {
                body(((Call) cloneMethod.invoke(first)).execute());
            }
            return null;
        });
        List<Span> spans = agent.spans();
        assertThat(spans).hasSize(cloneMethod != null ? 3 : 2);
        List<String> expected = new ArrayList<>();
        for (Span span : spans) {
            expected.add(traceparentOf(span.traceContext()));
        }
        assertThat(server.takeTraceparents()).containsExactlyElementsOf(expected);
    }

    private static Method cloneMethod() {
        try {
            return Call.class.getMethod("clone");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    @Test
    void nothingActiveMeansNoSpanAndNoHeader() throws Exception {
        Request request = new Request.Builder().url(server.url("/ok")).build();
        Call call = client.newCall(request);
        call.execute().body().close();
        assertThat(call.request()).isSameAs(request);
        CountDownLatch done = new CountDownLatch(1);
        client.newCall(request).enqueue(new Callback() {
            @Override
            public void onFailure(Call c, IOException e) {
                done.countDown();
            }

            @Override
            public void onResponse(Call c, Response response) {
                response.body().close();
                done.countDown();
            }
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(agent.spans()).isEmpty();
        assertThat(server.takeTraceparents()).containsExactly(null, null);
    }

    @Test
    void enqueuedCallEndsWhenItsResponseArrivesAndTheCallbackRunsInTheCallersContext() throws Exception {
        AtomicReference<AbstractSpan> activeInCallback = new AtomicReference<>();
        AtomicReference<Boolean> spanEndedBeforeCallback = new AtomicReference<>();
        Transaction[] transaction = new Transaction[1];
        CountDownLatch done = new CountDownLatch(1);
        agent.inTransaction(() -> {
            transaction[0] = agent.tracer().currentTransaction();
            client.newCall(new Request.Builder().url(server.url("/status/503")).build()).enqueue(new Callback() {
                @Override
                public void onFailure(Call c, IOException e) {
                    done.countDown();
                }

                @Override
                public void onResponse(Call c, Response response) {
                    activeInCallback.set(agent.tracer().active());
                    spanEndedBeforeCallback.set(agent.spans().size() == 1);
                    response.body().close();
                    done.countDown();
                }
            });
            assertThat(agent.tracer().active()).isSameAs(transaction[0]);
            return null;
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        awaitIdle(client);
        Span span = agent.onlySpan();
        PluginAgent.assertChildOf(transaction[0], span);
        assertThat(span.context().http().statusCode()).isEqualTo(503);
        assertThat(span.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(spanEndedBeforeCallback.get()).isTrue();
        assertThat(activeInCallback.get()).isSameAs(transaction[0]);
        assertThat(server.takeTraceparents()).containsExactly(traceparentOf(span.traceContext()));
    }

    @Test
    void enqueuedCallThatFailsCapturesTheFailure() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        AtomicReference<IOException> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        agent.inTransaction(() -> {
            client.newCall(new Request.Builder().url("http://127.0.0.1:" + closedPort + "/").build()).enqueue(new Callback() {
                @Override
                public void onFailure(Call c, IOException e) {
                    failure.set(e);
                    done.countDown();
                }

                @Override
                public void onResponse(Call c, Response response) {
                    response.body().close();
                    done.countDown();
                }
            });
            return null;
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        awaitIdle(client);
        Span span = agent.onlySpan();
        assertThat(span.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(agent.reporter().onlyError().exception()).isSameAs(failure.get());
    }

    @Test
    void aCallbackThatThrowsBreaksNothing() throws Exception {
        CountDownLatch thrown = new CountDownLatch(1);
        agent.inTransaction(() -> {
            client.newCall(new Request.Builder().url(server.url("/ok")).build()).enqueue(new Callback() {
                @Override
                public void onFailure(Call c, IOException e) {
                }

                @Override
                public void onResponse(Call c, Response response) {
                    response.body().close();
                    thrown.countDown();
                    throw new IllegalStateException("the application's callback fails");
                }
            });
            return null;
        });
        assertThat(thrown.await(10, TimeUnit.SECONDS)).isTrue();
        awaitIdle(client);
        assertThat(agent.onlySpan().outcome()).isEqualTo(Outcome.SUCCESS);
        // the next call, on whatever dispatcher thread, is traced as usual
        agent.inTransaction(() -> {
            client.newCall(new Request.Builder().url(server.url("/ok")).build()).execute().body().close();
            return null;
        });
        assertThat(agent.spans()).hasSize(2);
        assertThat(PluginHealth.of("okhttp").failures()).isZero();
    }

    /** OpenFeign's OkHttp client (feign-okhttp 13, built for OkHttp 4): Feign itself is not instrumented, OkHttp is. */
    @Test
    void openFeignOverOkHttpIsOneSpan() throws Exception {
        assumeTrue(OkHttpVersions.atLeast4(), "feign-okhttp 13 needs OkHttp 4 or later");
        Greeting api = feign.Feign.builder().client(new feign.okhttp.OkHttpClient(client)).target(Greeting.class, server.url(""));
        String greeting = agent.inTransaction(api::hello);
        assertThat(greeting).isEqualTo("hello");
        Span span = agent.onlySpan();
        assertThat(span.name().toString()).isEqualTo("GET 127.0.0.1");
        assertThat(span.context().http().url().toString()).isEqualTo(server.url("/ok"));
        assertThat(server.takeTraceparents()).containsExactly(traceparentOf(span.traceContext()));
    }

    /** Spring 6.2's OkHttp request factory (built for OkHttp 4), under RestTemplate and RestClient: one span each. */
    @Test
    @SuppressWarnings("deprecation") // OkHttp3ClientHttpRequestFactory: deprecated in Spring 6.1, still shipped in 6.2
    void springRestTemplateAndRestClientOverOkHttpAreOneSpanEach() throws Exception {
        assumeTrue(OkHttpVersions.atLeast4(), "Spring 6's OkHttp3ClientHttpRequestFactory needs OkHttp 4 or later");
        org.springframework.http.client.OkHttp3ClientHttpRequestFactory factory =
                new org.springframework.http.client.OkHttp3ClientHttpRequestFactory(client);
        org.springframework.web.client.RestTemplate template = new org.springframework.web.client.RestTemplate(factory);
        org.springframework.web.client.RestClient restClient = org.springframework.web.client.RestClient.builder().requestFactory(factory).build();
        assertThat(agent.inTransaction(() -> template.getForObject(server.url("/ok"), String.class))).isEqualTo("hello");
        assertThat(agent.inTransaction(() -> restClient.get().uri(server.url("/ok?rest-client")).retrieve().body(String.class))).isEqualTo("hello");
        List<Span> spans = agent.spans();
        assertThat(spans).hasSize(2);
        assertThat(spans.get(0).context().http().url().toString()).isEqualTo(server.url("/ok"));
        assertThat(spans.get(1).context().http().url().toString()).isEqualTo(server.url("/ok?rest-client"));
        assertThat(server.takeTraceparents()).containsExactly(traceparentOf(spans.get(0).traceContext()), traceparentOf(spans.get(1).traceContext()));
    }

    interface Greeting {
        @feign.RequestLine("GET /ok")
        String hello();
    }

    @Test
    void nothingActiveAllocatesNothing() {
        Request request = new Request.Builder().url(server.url("/ok")).build();
        Call call = client.newCall(request);
        Class<?> type = call.getClass();
        assertThat(AllocationMeter.bytesPerCall(() -> {
            Object traced = OkHttpHelper.enterExecute(type, request);
            OkHttpHelper.exitExecute(traced, null, null);
            OkHttpHelper.responseArrived(type, call, null, null);
            OkHttpHelper.asyncRunEnds(OkHttpHelper.asyncRunStarts(call), call);
        })).isZero();
    }

    static String body(Response response) throws IOException {
        try {
            return response.body().string();
        } finally {
            response.body().close();
        }
    }

    static String traceparentOf(TraceContext c) {
        char[] chars = new char[55];
        c.writeTraceparent(chars, 0);
        return new String(chars);
    }

    /** Until no call runs on the client's dispatcher: the end of a run (after the callback) releases what it held. */
    static void awaitIdle(OkHttpClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (client.dispatcher().runningCallsCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(20); // the run's exit advice follows the dispatcher's bookkeeping
    }
}
