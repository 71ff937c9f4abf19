package dev.apmagent.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * A stand-in APM Server on a raw socket, so it can misbehave: answer any status and body, hang, reset the
 * connection, read very slowly, send garbage. Records every request it read completely (headers, decompressed body).
 */
final class FakeApmServer implements AutoCloseable {

    enum Mode { REPLY, HANG, RESET, SLOW_READ, GARBAGE_STATUS_LINE, INTERIM_THEN_REPLY, CLOSE_WITHOUT_REPLY }

    /** What to do with the next requests. */
    static final class Behaviour {
        final Mode mode;
        final int status;
        final String body;
        final String contentType;

        Behaviour(Mode mode, int status, String body, String contentType) {
            this.mode = mode;
            this.status = status;
            this.body = body;
            this.contentType = contentType;
        }

        static Behaviour accept() {
            return new Behaviour(Mode.REPLY, 202, "", null);
        }

        static Behaviour status(int status, String body) {
            return new Behaviour(Mode.REPLY, status, body, "application/json");
        }

        static Behaviour of(Mode mode) {
            return new Behaviour(mode, 202, "", null);
        }
    }

    /** One request read completely. */
    static final class Received {
        final Map<String, String> headers;
        final byte[] rawBody;
        final String body;

        Received(Map<String, String> headers, byte[] rawBody, String body) {
            this.headers = headers;
            this.rawBody = rawBody;
            this.body = body;
        }

        List<String> lines() {
            List<String> out = new ArrayList<String>();
            for (String l : body.split("\n")) {
                if (!l.isEmpty()) {
                    out.add(l);
                }
            }
            return out;
        }
    }

    private final ServerSocket serverSocket;
    private final Thread acceptor;
    private final List<Socket> open = new CopyOnWriteArrayList<Socket>();
    final List<Received> requests = new CopyOnWriteArrayList<Received>();
    private volatile Behaviour behaviour = Behaviour.accept();
    private volatile boolean closed;
    volatile int connections;

    FakeApmServer() throws IOException {
        this(0);
    }

    FakeApmServer(int port) throws IOException {
        this(port, null);
    }

    /** A server speaking TLS with the given context's key (for certificate verification tests). */
    FakeApmServer(javax.net.ssl.SSLContext tls) throws IOException {
        this(0, tls);
    }

    private final boolean tls;

    private FakeApmServer(int port, javax.net.ssl.SSLContext tlsContext) throws IOException {
        tls = tlsContext != null;
        serverSocket = tlsContext != null ? tlsContext.getServerSocketFactory().createServerSocket() : new ServerSocket();
        serverSocket.setReuseAddress(true);
        serverSocket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        acceptor = new Thread(this::acceptLoop, "fake-apm-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A loopback URL where nothing listens. */
    static String downUrl() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    String url() {
        return (tls ? "https://localhost:" : "http://127.0.0.1:") + serverSocket.getLocalPort();
    }

    int port() {
        return serverSocket.getLocalPort();
    }

    void behave(Behaviour b) {
        behaviour = b;
    }

    /** Every event line received (metadata lines left out). */
    List<String> eventLines() {
        List<String> out = new ArrayList<String>();
        for (Received r : requests) {
            for (String l : r.lines()) {
                if (!l.startsWith("{\"metadata\"")) {
                    out.add(l);
                }
            }
        }
        return out;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = serverSocket.accept();
                connections++;
                open.add(s);
                Thread t = new Thread(() -> handle(s), "fake-apm-server-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void handle(Socket s) {
        Behaviour b = behaviour;
        try {
            InputStream in = s.getInputStream();
            Map<String, String> headers = readHead(in);
            if (b.mode == Mode.RESET) {
                s.setSoLinger(true, 0);
                s.close();
                return;
            }
            byte[] raw = readChunkedBody(in, b.mode == Mode.SLOW_READ);
            String body = decode(headers.get("content-encoding"), raw);
            requests.add(new Received(headers, raw, body));
            if (b.mode == Mode.CLOSE_WITHOUT_REPLY) {
                return; // read the whole request, then close (FIN) without a byte of reply: a server killed meanwhile
            }
            if (b.mode == Mode.HANG) {
                while (!closed && !s.isClosed()) {
                    Thread.sleep(20);
                }
                return;
            }
            OutputStream out = s.getOutputStream();
            if (b.mode == Mode.INTERIM_THEN_REPLY) {
                out.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            if (b.mode == Mode.GARBAGE_STATUS_LINE) {
                out.write("SOMETHING ELSE ENTIRELY\r\n\r\nblah".getBytes(StandardCharsets.US_ASCII));
            } else {
                byte[] bodyBytes = b.body.getBytes(StandardCharsets.UTF_8);
                StringBuilder head = new StringBuilder();
                head.append("HTTP/1.1 ").append(b.status).append(" X\r\n");
                if (b.contentType != null) {
                    head.append("Content-Type: ").append(b.contentType).append("\r\n");
                }
                head.append("Content-Length: ").append(bodyBytes.length).append("\r\nConnection: close\r\n\r\n");
                out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
                out.write(bodyBytes);
            }
            out.flush();
        } catch (IOException | InterruptedException e) {
            // the client went away
        } finally {
            try {
                s.close();
            } catch (IOException ignored) {
                // closed
            }
            open.remove(s);
        }
    }

    private static Map<String, String> readHead(InputStream in) throws IOException {
        Map<String, String> headers = new HashMap<String, String>();
        String requestLine = readLine(in);
        if (requestLine == null) {
            throw new IOException("no request");
        }
        headers.put(":request", requestLine);
        String line;
        while ((line = readLine(in)) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        return Collections.unmodifiableMap(headers);
    }

    private static byte[] readChunkedBody(InputStream in, boolean slow) throws IOException, InterruptedException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            if (sizeLine == null) {
                throw new IOException("body cut short");
            }
            int size = Integer.parseInt(sizeLine.trim(), 16);
            if (size == 0) {
                readLine(in);
                return body.toByteArray();
            }
            byte[] chunk = new byte[size];
            int n = 0;
            while (n < size) {
                int r = in.read(chunk, n, slow ? Math.min(256, size - n) : size - n);
                if (r < 0) {
                    throw new IOException("body cut short");
                }
                n += r;
                if (slow) {
                    Thread.sleep(5);
                }
            }
            body.write(chunk);
            readLine(in);
        }
    }

    private static String decode(String encoding, byte[] raw) throws IOException {
        InputStream in;
        if ("deflate".equals(encoding)) {
            in = new InflaterInputStream(new java.io.ByteArrayInputStream(raw));
        } else if ("gzip".equals(encoding)) {
            in = new GZIPInputStream(new java.io.ByteArrayInputStream(raw));
        } else {
            return new String(raw, StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int r;
        while ((r = in.read(buf)) > 0) {
            out.write(buf, 0, r);
        }
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            sb.append((char) b);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    @Override
    public void close() {
        closed = true;
        try {
            serverSocket.close();
        } catch (IOException ignored) {
            // closing
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    static boolean isReset(Throwable t) {
        return t instanceof SocketException;
    }
}
