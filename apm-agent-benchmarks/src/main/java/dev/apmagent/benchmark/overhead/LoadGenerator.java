package dev.apmagent.benchmark.overhead;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A closed-loop HTTP/1.1 load generator: {@code concurrency} threads, each on its own keep-alive connection with
 * TCP_NODELAY, send {@code GET path} and read the whole response before sending the next, so the application always
 * has exactly {@code concurrency} requests in flight and runs as fast as it can. Latency (send to last body byte) goes
 * into an HdrHistogram {@link Recorder}; {@link #interval()} swaps it out, so the caller cuts the run into windows
 * (warm-up windows, then one measured window) without stopping the load. A request that fails or answers other than
 * 200 counts as an error and is not recorded; its connection is replaced.
 *
 * <p>Closed loop on purpose: the harness compares the saturated throughput and CPU per request of one application
 * under four agents. Latency percentiles of a closed loop understate queueing (coordinated omission); read them as a
 * comparison between configurations at the same concurrency, not as what users would see at a given arrival rate.
 */
public final class LoadGenerator implements Load {

    private final String host;
    private final int port;
    private final byte[] request;
    private final Recorder recorder = new Recorder(3);
    private final LongAdder errors = new LongAdder();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;
    private long intervalStartNanos;
    private long errorsAtIntervalStart;

    private LoadGenerator(String host, int port, String path, int concurrency) {
        this.host = host;
        this.port = port;
        this.request = ("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nUser-Agent: overhead-harness"
                + "\r\nAccept: */*\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < concurrency; i++) {
            Thread t = new Thread(this::loop, "load-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
    }

    /** Starts {@code concurrency} connections against {@code http://host:port/path}. */
    public static LoadGenerator start(String host, int port, String path, int concurrency) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
        }
        LoadGenerator generator = new LoadGenerator(host, port, path, concurrency);
        generator.intervalStartNanos = System.nanoTime();
        generator.recorder.reset();
        for (Thread t : generator.threads) {
            t.start();
        }
        return generator;
    }

    /** The responses and errors since the previous call, or since the start. */
    public synchronized LoadWindow interval() {
        Histogram h = recorder.getIntervalHistogram();
        long now = System.nanoTime();
        long errorsNow = errors.sum();
        LoadWindow window = new LoadWindow(h.getTotalCount(), errorsNow - errorsAtIntervalStart,
                (now - intervalStartNanos) / 1e9, h.getValueAtPercentile(50), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9));
        intervalStartNanos = now;
        errorsAtIntervalStart = errorsNow;
        return window;
    }

    @Override
    public LoadWindow run(double seconds) throws InterruptedException {
        Thread.sleep((long) (seconds * 1000));
        return interval();
    }

    private void loop() {
        while (running) {
            try (Socket socket = new Socket()) {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(host, port), 5_000);
                socket.setSoTimeout(30_000);
                InputStream in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
                OutputStream out = socket.getOutputStream();
                boolean keepAlive = true;
                while (running && keepAlive) {
                    long start = System.nanoTime();
                    out.write(request);
                    out.flush();
                    String head = HttpWire.readHead(in);
                    if (head == null) {
                        break; // the server closed an idle connection: reconnect
                    }
                    HttpWire.readBody(in, head);
                    long latency = System.nanoTime() - start;
                    if (HttpWire.status(head) == 200) {
                        recorder.recordValue(latency);
                    } else {
                        errors.increment();
                    }
                    String connection = HttpWire.header(head, "Connection");
                    keepAlive = connection == null || !connection.equalsIgnoreCase("close");
                }
            } catch (IOException | RuntimeException e) {
                if (running) {
                    errors.increment();
                    pause();
                }
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops sending, and waits for every connection to finish its request in flight. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(35_000);
        }
    }
}
