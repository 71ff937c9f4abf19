package dev.apmagent.benchmark.http;

import com.sun.net.httpserver.HttpServer;
import dev.apmagent.benchmark.BenchmarkAgent;
import dev.apmagent.benchmark.LoopbackPort;
import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.plugin.jdkhttp.JdkHttpPlugin;
import dev.apmagent.trace.Reporter;
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
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What the agent adds to one synchronous {@code HttpURLConnection} GET on loopback: a JDK {@code HttpServer} in the
 * same JVM answers 200 with a 16-byte body; each operation opens the connection (kept alive and reused by the JDK),
 * asks the status, reads the body to its end and closes the stream. Each fork is one mode:
 * <ul>
 *   <li>{@code none}: no instrumentation in the JVM, the call alone;</li>
 *   <li>{@code idle}: the plugin installed (five advised methods of the JDK's connection, through the bootstrap
 *   bridge) and a tracer running, nothing active on the calling thread: every advised method asks and does nothing;</li>
 *   <li>{@code agent}: each operation is a transaction on the calling thread (start, activate, the call, deactivate,
 *   end): the connection's exit span, its three headers, and two events to a reporter that releases them on its own
 *   thread ({@link ReleasingReporter}). The server is not instrumented (it is not a servlet container): this is the
 *   client's side alone, plus the caller's transaction.</li>
 * </ul>
 * {@code agent - none} is what a traced call costs the calling thread, the transaction included
 * ({@code HotPathBenchmark} gives a transaction's own share); {@code idle - none} is what the advice costs an untraced
 * call. Use {@code -prof gc}: B/op counts every thread (the server's too) per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class UrlConnectionCallBenchmark {

    static final byte[] BODY = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Param({"none", "idle", "agent"})
    public String mode;

    ReleasingReporter reporter;
    Tracer tracer;
    URL url;
    private HttpServer server;
    private ExecutorService serverThreads;
    private BenchmarkAgent agent;
    private boolean tracing;
    private final byte[] buffer = new byte[256];

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (!mode.equals("none")) {
            agent = BenchmarkAgent.install(new JdkHttpPlugin(), this::reportTo);
            reporter = agent.reporter;
            tracer = agent.tracer;
            tracing = mode.equals("agent");
        }
        // without it the server writes headers and body in two segments, and Nagle's algorithm against the client's
        // delayed ACK makes every call take 40 ms: the benchmark would measure the kernel's timer
        System.setProperty("sun.net.httpserver.nodelay", "true");
        int port = LoopbackPort.free();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        serverThreads = Executors.newFixedThreadPool(2, task -> {
            Thread t = new Thread(task, "benchmark-http-server");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(serverThreads);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, BODY.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(BODY);
            }
        });
        server.start();
        url = new URL("http://127.0.0.1:" + port + "/ping?x=1");
    }

    /** Where the tracer reports; the test puts a recorder in front of the releasing reporter. */
    Reporter reportTo(ReleasingReporter releasing) {
        return releasing;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        server.stop(0);
        serverThreads.shutdownNow();
        if (agent != null) {
            agent.stop();
        }
    }

    /** Removes the instrumentation installed by {@link #setUp}, after {@link #tearDown} (tests; a fork just ends). */
    void uninstall() {
        if (agent != null) {
            agent.uninstall();
        }
    }

    /** One GET: status and body; in {@code agent} mode inside its own transaction. Returns the bytes read. */
    @Benchmark
    public int call() throws IOException {
        Transaction t = tracing ? agent.startTransaction() : null;
        try {
            HttpURLConnection c = (HttpURLConnection) url.openConnection();
            int status = c.getResponseCode();
            int read = 0;
            try (InputStream in = c.getInputStream()) {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    read += n;
                }
            }
            return status == 200 ? read : -status;
        } finally {
            if (t != null) {
                agent.endTransaction(t);
            }
        }
    }
}
