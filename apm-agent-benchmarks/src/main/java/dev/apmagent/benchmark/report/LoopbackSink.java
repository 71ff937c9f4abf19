package dev.apmagent.benchmark.report;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal HTTP/1.1 receiver on 127.0.0.1 that stands in for the APM Server: it reads each request to its end (chunked
 * or with a Content-Length), discards the body, counts requests and body bytes, and answers {@code 202 Accepted} to
 * POSTs and {@code 200} with a version document to anything else. One daemon thread per connection, TCP_NODELAY on,
 * so the reply is not held back by Nagle. It never parses the events: the benchmark measures the agent's side.
 */
public final class LoopbackSink implements AutoCloseable {

    private static final byte[] ACCEPTED = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] VERSION_BODY = "{\"version\":\"8.15.0\"}".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OK_HEAD = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
            + VERSION_BODY.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final Thread acceptor;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bodyBytes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean open = true;

    public LoopbackSink() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "loopback-sink");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code http://127.0.0.1:port}. */
    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    public long requests() {
        return requests.get();
    }

    /** Body bytes as received (compressed when the agent compresses). */
    public long bodyBytes() {
        return bodyBytes.get();
    }

    /** Connections that ended before a complete request was read. */
    public long failures() {
        return failures.get();
    }

    private void acceptLoop() {
        while (open) {
            try {
                Socket socket = server.accept();
                Thread handler = new Thread(() -> handle(socket), "loopback-sink-connection");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                if (open) {
                    failures.incrementAndGet();
                }
            }
        }
    }

    private void handle(Socket socket) {
        try (Socket s = socket) {
            s.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
            OutputStream out = s.getOutputStream();
            String head = readHead(in);
            if (head == null) {
                return;
            }
            String lower = head.toLowerCase();
            long body;
            if (lower.contains("transfer-encoding: chunked")) {
                body = readChunked(in);
            } else {
                body = skip(in, contentLength(lower));
            }
            if (body < 0) {
                failures.incrementAndGet();
                return;
            }
            requests.incrementAndGet();
            bodyBytes.addAndGet(body);
            if (head.startsWith("POST")) {
                out.write(ACCEPTED);
            } else {
                out.write(OK_HEAD);
                out.write(VERSION_BODY);
            }
            out.flush();
        } catch (IOException e) {
            if (open) {
                failures.incrementAndGet();
            }
        }
    }

    /** The request line and headers, or null at end of stream. */
    static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(256);
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            sb.append((char) b);
            if (b == (matched % 2 == 0 ? '\r' : '\n')) {
                matched++;
                if (matched == 4) {
                    return sb.toString();
                }
            } else {
                matched = b == '\r' ? 1 : 0;
            }
        }
        return null;
    }

    static long contentLength(String lowerCaseHead) {
        int i = lowerCaseHead.indexOf("content-length:");
        if (i < 0) {
            return 0;
        }
        int end = lowerCaseHead.indexOf('\r', i);
        return Long.parseLong(lowerCaseHead.substring(i + "content-length:".length(), end).trim());
    }

    /** Reads a chunked body to its last chunk and trailer; its size, or -1 when the stream ended early. */
    static long readChunked(InputStream in) throws IOException {
        long total = 0;
        while (true) {
            String line = readLine(in);
            if (line == null) {
                return -1;
            }
            int semicolon = line.indexOf(';');
            long size = Long.parseLong((semicolon >= 0 ? line.substring(0, semicolon) : line).trim(), 16);
            if (size == 0) {
                String trailer;
                do {
                    trailer = readLine(in);
                } while (trailer != null && !trailer.isEmpty());
                return total;
            }
            if (skip(in, size) < 0 || readLine(in) == null) {
                return -1;
            }
            total += size;
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(16);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            sb.append((char) b);
        }
        return null;
    }

    private static long skip(InputStream in, long n) throws IOException {
        long left = n;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    return -1;
                }
                skipped = 1;
            }
            left -= skipped;
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        open = false;
        server.close();
    }
}
