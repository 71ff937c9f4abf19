package dev.apmagent.benchmark.okhttp;

import com.sun.net.httpserver.HttpServer;
import dev.apmagent.benchmark.BenchmarkAgent;
import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.plugin.okhttp.OkHttpPlugin;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What the agent adds to one synchronous OkHttp 4 call ({@code execute()}, body read, response closed) to a server on
 * 127.0.0.1 in the same JVM: the JDK's own {@code HttpServer}, never instrumented, answering "pong" over a kept-alive
 * connection. Each fork is one mode:
 * <ul>
 *   <li>{@code none}: no instrumentation in the JVM, the call alone;</li>
 *   <li>{@code idle}: the OkHttp instrumentation installed and a tracer running, nothing active on the calling thread:
 *   the advice reads the tracer and the active event and returns;</li>
 *   <li>{@code agent}: each operation is a transaction on the calling thread (start, activate, the call, deactivate,
 *   end), so the call records an exit span and sends a copy of its request with {@code traceparent},
 *   {@code tracestate} and {@code elastic-apm-traceparent}. The two events go to a reporter that releases them on its
 *   own thread ({@link ReleasingReporter}).</li>
 * </ul>
 * {@code idle - none} is what the advice costs an untraced call; {@code agent - none} what a traced call costs, the
 * caller's transaction included ({@code HotPathBenchmark} gives a transaction's own share). {@code -prof gc} counts
 * every thread (the server's too), per call.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class OkHttpCallBenchmark {

    static final String ANSWER = "pong";

    @Param({"none", "idle", "agent"})
    public String mode;

    ReleasingReporter reporter;
    Tracer tracer;
    HttpServer server;
    OkHttpClient client;
    Request request;
    /** The {@code traceparent} of the last request the server got (null: none), for the test. */
    volatile String lastTraceparent;
    private ExecutorService serverThreads;
    private BenchmarkAgent agent;
    private boolean traced;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (!"none".equals(mode)) {
            agent = BenchmarkAgent.install(new OkHttpPlugin(), this::reportTo);
            reporter = agent.reporter;
            tracer = agent.tracer;
            traced = "agent".equals(mode);
        }
        startServer();
        client = new OkHttpClient.Builder().readTimeout(10, TimeUnit.SECONDS).build();
        request = new Request.Builder().url("http://127.0.0.1:" + server.getAddress().getPort() + "/ping").build();
    }

    /** Where the tracer reports; the test puts a recorder in front of the releasing reporter. */
    Reporter reportTo(ReleasingReporter releasing) {
        return releasing;
    }

    private void startServer() throws IOException {
        byte[] pong = ANSWER.getBytes(StandardCharsets.UTF_8);
        // read once, when the server's configuration class loads: without it the server's small writes wait for the
        // client's delayed ACK (Nagle), and every call takes some 40 ms of idle time
        System.setProperty("sun.net.httpserver.nodelay", "true");
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        serverThreads = Executors.newFixedThreadPool(2);
        server.setExecutor(serverThreads);
        server.createContext("/ping", exchange -> {
            lastTraceparent = exchange.getRequestHeaders().getFirst("traceparent");
            exchange.sendResponseHeaders(200, pong.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(pong);
            }
        });
        server.start();
    }

    /** Stops the client's pool, the server and the tracer; see {@link BenchmarkAgent#stop}. */
    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
        server.stop(0);
        serverThreads.shutdownNow();
        if (agent != null) {
            agent.stop();
        }
    }

    /** Removes the instrumentation installed by {@link #setUp}, after {@link #tearDown} (a JVM that goes on: the test). */
    void uninstall() {
        if (agent != null) {
            agent.uninstall();
        }
    }

    /** One synchronous call, body read; in {@code agent} mode inside its own transaction. */
    @Benchmark
    public String call() throws IOException {
        Transaction t = traced ? agent.startTransaction() : null;
        try {
            Response response = client.newCall(request).execute();
            try {
                return response.body().string();
            } finally {
                response.close();
            }
        } finally {
            if (t != null) {
                agent.endTransaction(t);
            }
        }
    }
}
