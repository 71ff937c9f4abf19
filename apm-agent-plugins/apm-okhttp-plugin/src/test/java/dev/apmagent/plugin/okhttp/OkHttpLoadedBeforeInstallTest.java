package dev.apmagent.plugin.okhttp;

import dev.apmagent.plugin.ContextField;
import dev.apmagent.testing.ChildFirstLoader;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An attach: OkHttp (this execution's version) loaded in a class loader of its own and used, execute and enqueue,
 * before the instrumentation is installed, so {@code RealCall} and {@code AsyncCall} are retransformed (no context
 * field: enqueued calls keep their state in the store's weak map). Traced calls then behave as on the other path.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OkHttpLoadedBeforeInstallTest {

    private LoopbackServer server;
    private ChildFirstLoader loader;
    private Object client;
    private PluginAgent agent;

    @BeforeAll
    void loadOkHttpThenInstall() throws Exception {
        server = new LoopbackServer();
        URL okhttpJar = okhttp3.OkHttpClient.class.getProtectionDomain().getCodeSource().getLocation();
        loader = new ChildFirstLoader(okhttpJar, ClassLoader.getSystemClassLoader(), "okhttp3.");
        Object builder = loader.loadClass("okhttp3.OkHttpClient$Builder").getConstructor().newInstance();
        client = builder.getClass().getMethod("build").invoke(builder);
        close(execute(newCall("/ok")));
        enqueue(newCall("/ok"), new AtomicReference<>()).await(10, TimeUnit.SECONDS);
        server.takeTraceparents();
        agent = PluginAgent.install(new OkHttpPlugin());
    }

    @AfterAll
    void uninstall() {
        agent.uninstall();
        server.close();
    }

    @BeforeEach
    void start() {
        agent.startTracer();
    }

    @AfterEach
    void stop() throws Exception {
        awaitIdle();
        agent.stopTracer();
    }

    @Test
    void retransformedCallsAreTracedWithoutAContextField() throws Exception {
        assertThat(agent.errorsSinceInstall()).isZero();
        Object call = newCall("/ok");
        assertThat(call).isNotInstanceOf(ContextField.class);
        assertThat(call.getClass().getClassLoader()).isSameAs(loader);

        agent.inTransaction(() -> {
            close(execute(call));
            return null;
        });
        Span sync = agent.onlySpan();
        assertThat(sync.context().http().statusCode()).isEqualTo(200);
        assertThat(server.takeTraceparents()).containsExactly(OkHttpInstrumentationTest.traceparentOf(sync.traceContext()));
    }

    @Test
    void enqueuedCallsKeepTheirStateInTheMapAndEndAsUsual() throws Exception {
        AtomicReference<AbstractSpan> activeInCallback = new AtomicReference<>();
        Transaction[] caller = new Transaction[1];
        CountDownLatch done = agent.inTransaction(() -> {
            caller[0] = agent.tracer().currentTransaction();
            return enqueue(newCall("/status/404"), activeInCallback);
        });
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        awaitIdle();
        Span span = agent.onlySpan();
        assertThat(span.context().http().statusCode()).isEqualTo(404);
        assertThat(span.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(activeInCallback.get()).isSameAs(caller[0]);
        assertThat(OkHttpHelper.asyncCalls.size()).as("the map forgot the call").isZero();
        assertThat(server.takeTraceparents()).containsExactly(OkHttpInstrumentationTest.traceparentOf(span.traceContext()));
    }

    private Object newCall(String path) throws Exception {
        Class<?> requestBuilderType = loader.loadClass("okhttp3.Request$Builder");
        Object requestBuilder = requestBuilderType.getConstructor().newInstance();
        requestBuilderType.getMethod("url", String.class).invoke(requestBuilder, server.url(path));
        Object request = requestBuilderType.getMethod("build").invoke(requestBuilder);
        return client.getClass().getMethod("newCall", loader.loadClass("okhttp3.Request")).invoke(client, request);
    }

    private Object execute(Object call) throws Exception {
        return loader.loadClass("okhttp3.Call").getMethod("execute").invoke(call);
    }

    private void close(Object response) throws Exception {
        Object body = loader.loadClass("okhttp3.Response").getMethod("body").invoke(response);
        loader.loadClass("okhttp3.ResponseBody").getMethod("close").invoke(body);
    }

    /** Enqueues {@code call} with a callback (a proxy of this loader's {@code Callback}) that records the active event. */
    private CountDownLatch enqueue(Object call, AtomicReference<AbstractSpan> activeInCallback) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        Class<?> callbackType = loader.loadClass("okhttp3.Callback");
        Object callback = Proxy.newProxyInstance(loader, new Class<?>[]{callbackType}, (proxy, method, args) -> {
            if (method.getName().equals("onResponse")) {
                activeInCallback.set(agent == null || agent.tracer() == null ? null : agent.tracer().active());
                close(args[1]);
                done.countDown();
            } else if (method.getName().equals("onFailure")) {
                done.countDown();
            }
            return null;
        });
        Method enqueue = loader.loadClass("okhttp3.Call").getMethod("enqueue", callbackType);
        enqueue.invoke(call, callback);
        return done;
    }

    private void awaitIdle() throws Exception {
        Object dispatcher = client.getClass().getMethod("dispatcher").invoke(client);
        Method running = dispatcher.getClass().getMethod("runningCallsCount");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((int) running.invoke(dispatcher) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(20); // the run's exit advice follows the dispatcher's bookkeeping
    }
}
