package dev.apmagent.benchmark.httpclient;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.apmagent.benchmark.BenchmarkAgent;
import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.plugin.apache.ApacheHttpClientPlugin;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
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
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * What the agent adds to one synchronous GET of Apache HttpClient on loopback: the client ({@code apache4}: 4.5,
 * {@code apache5}: 5.6, classic, a pooled connection kept alive) against the JDK's own HTTP server in the same JVM,
 * which answers 2 bytes. Each fork is one mode:
 * <ul>
 *   <li>{@code none}: no instrumentation in the JVM, the call alone;</li>
 *   <li>{@code idle}: the Apache HttpClient instrumentation installed and a tracer running, no transaction active:
 *   every exec-chain handler's advice runs and finds nothing to do;</li>
 *   <li>{@code agent}: each call inside a transaction, so the outermost handler records an exit span and the request
 *   carries {@code traceparent}/{@code tracestate}/{@code elastic-apm-traceparent}; the two events go to a reporter
 *   that releases them on its own thread ({@link ReleasingReporter}).</li>
 * </ul>
 * The server is not instrumented (the JDK's {@code HttpServer}), so {@code agent - none} is the client's side: the
 * caller's transaction, the span, the headers (written, and read by the server). {@code -prof gc} B/op counts every
 * thread, the server's included.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class ApacheHttpClientBenchmark {

    static final byte[] BODY = {'o', 'k'};

    @Param({"none", "idle", "agent"})
    public String mode;

    @Param({"apache5", "apache4"})
    public String client;

    ReleasingReporter reporter;
    Tracer tracer;
    /** The {@code traceparent} of the last request the server got (the test reads it). */
    volatile String lastTraceparent;
    private HttpServer server;
    private Call call;
    private BenchmarkAgent agent;
    private boolean tracing;

    /** One GET with one of the clients: its status. */
    interface Call extends AutoCloseable {
        int get() throws IOException;
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (!mode.equals("none")) {
            agent = BenchmarkAgent.install(new ApacheHttpClientPlugin(), releasing -> releasing);
            reporter = agent.reporter;
            tracer = agent.tracer;
            tracing = mode.equals("agent");
        }
        // the JDK's server writes the head and the body apart: without TCP_NODELAY, Nagle and the client's delayed ACK
        // add 40 ms to every call (read once, when the server's configuration class loads)
        System.setProperty("sun.net.httpserver.nodelay", "true");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/", this::answer);
        server.start();
        String uri = "http://127.0.0.1:" + server.getAddress().getPort() + "/orders?id=7";
        call = client.equals("apache4") ? Clients.apache4(uri) : Clients.apache5(uri);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
            while (in.read() >= 0) {
                // drain
            }
            lastTraceparent = exchange.getRequestHeaders().getFirst("traceparent");
            exchange.sendResponseHeaders(200, BODY.length);
            out.write(BODY);
        }
    }

    /** Stops the client, the server and the reporter; the instrumentation stays ({@link BenchmarkAgent#stop}). */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        if (call != null) {
            call.close();
        }
        if (server != null) {
            server.stop(0);
        }
        if (agent != null) {
            agent.stop();
        }
    }

    /** Removes the instrumentation, after {@link #tearDown}: for a JVM that goes on (the test). */
    void uninstall() {
        if (agent != null) {
            agent.uninstall();
        }
    }

    /** One synchronous GET, the body read; in {@code agent} mode inside its own transaction. */
    @Benchmark
    public int get() throws IOException {
        Transaction t = tracing ? agent.startTransaction() : null;
        try {
            return call.get();
        } finally {
            if (t != null) {
                agent.endTransaction(t);
            }
        }
    }
}
