package dev.apmagent.it.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.InflaterInputStream;

/**
 * A stand-in APM Server on a raw loopback socket (after core's {@code FakeApmServer}, which is package-private in core's
 * tests) that can misbehave for a whole agent: be down and come back on the same port, answer 503, answer 400 with
 * garbage, answer only after 30 s, or read requests at 1 KB/s. It keeps the event lines of every request it answered
 * with 202, which is what the agent may count as delivered.
 */
final class StandInApmServer implements AutoCloseable {

    enum Behaviour { ACCEPT, STATUS_503, GARBAGE_400, REPLY_AFTER_30S, READ_1KB_PER_S }

    private final int port;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    /** Event lines (metadata left out) of the requests answered 202. */
    private final List<String> accepted = new CopyOnWriteArrayList<>();
    /** Every request body it answered 202, inflated, metadata line included. */
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private volatile Behaviour behaviour = Behaviour.ACCEPT;
    private volatile ServerSocket serverSocket;
    volatile int requestsSeen;

    StandInApmServer() throws IOException {
        ServerSocket first = bindBelowEphemeralRange();
        port = first.getLocalPort();
        listen(first);
    }

    /**
     * A port below Linux's ephemeral range (32768 and up): {@link #up} binds the same port again after {@link #down},
     * and a port of that range could meanwhile be any outgoing connection's local port (seen: "Address already in
     * use" on a busy machine).
     */
    private static ServerSocket bindBelowEphemeralRange() throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        IOException last = null;
        for (int attempt = 0; attempt < 50; attempt++) {
            try {
                return bind(20_000 + random.nextInt(12_000));
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    void behave(Behaviour b) {
        behaviour = b;
    }

    /** Stops listening and closes every open connection: the agent's requests fail, new connections are refused. */
    synchronized void down() throws IOException {
        ServerSocket s = serverSocket;
        serverSocket = null;
        if (s != null) {
            s.close();
        }
        for (Socket c : open) {
            c.close();
        }
    }

    /** Listens again on the same port. */
    synchronized void up() throws IOException {
        if (serverSocket == null) {
            listen(bind(port));
        }
    }

    List<String> acceptedLines() {
        return new ArrayList<>(accepted);
    }

    /** The whole bodies (inflated, with their metadata lines) of the requests answered 202. */
    List<String> acceptedBodies() {
        return new ArrayList<>(bodies);
    }

    private static ServerSocket bind(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        // a small receive buffer, so that a server that reads slowly makes the agent's writes wait
        s.setReceiveBufferSize(4096);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return s;
    }

    private void listen(ServerSocket s) {
        serverSocket = s;
        Thread acceptor = new Thread(() -> acceptLoop(s), "stand-in-apm-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptLoop(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket c = s.accept();
                open.add(c);
                Thread t = new Thread(() -> handle(c), "stand-in-apm-server-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void handle(Socket s) {
        try {
            requestsSeen++;
            InputStream in = s.getInputStream();
            String encoding = readHead(in);
            byte[] raw = readChunkedBody(in);
            Behaviour b = behaviour;
            OutputStream out = s.getOutputStream();
            if (b == Behaviour.STATUS_503) {
                reply(out, 503, "application/json", "{\"error\":\"the stand-in is unavailable\"}");
            } else if (b == Behaviour.GARBAGE_400) {
                reply(out, 400, "application/json", "\u0000\u00ff<html>not json at all {{{");
            } else {
                if (b == Behaviour.REPLY_AFTER_30S && !waitWhileOpen(s, TimeUnit.SECONDS.toMillis(30))) {
                    return; // the agent gave up before the answer: nothing was accepted
                }
                reply(out, 202, null, "");
                List<String> lines = new ArrayList<>();
                String body = decode(encoding, raw);
                bodies.add(body);
                for (String line : body.split("\n")) {
                    if (!line.isEmpty() && !line.startsWith("{\"metadata\"")) {
                        lines.add(line);
                    }
                }
                accepted.addAll(lines); // one copy of the list per request, not per line: it shares the cores with the load
            }
        } catch (IOException | InterruptedException e) {
            // the agent went away, or the server went down
        } finally {
            try {
                s.close();
            } catch (IOException ignored) {
                // closed
            }
            open.remove(s);
        }
    }

    /** Waits {@code millis} unless the client closes the connection first; true when it is still open. */
    private static boolean waitWhileOpen(Socket s, long millis) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        s.setSoTimeout(50);
        while (System.nanoTime() - deadline < 0) {
            try {
                if (s.getInputStream().read() < 0) {
                    return false;
                }
            } catch (SocketTimeoutException e) {
                // still open and quiet
            }
        }
        return true;
    }

    private static void reply(OutputStream out, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" Stand-in\r\n");
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        head.append("Content-Length: ").append(bytes.length).append("\r\nConnection: close\r\n\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
    }

    /** Reads the request head; returns the Content-Encoding (null when none). */
    private static String readHead(InputStream in) throws IOException {
        if (readLine(in) == null) {
            throw new IOException("no request");
        }
        String encoding = null;
        String line;
        while ((line = readLine(in)) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("content-encoding")) {
                encoding = line.substring(colon + 1).trim();
            }
        }
        return encoding;
    }

    private byte[] readChunkedBody(InputStream in) throws IOException, InterruptedException {
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
                boolean slow = behaviour == Behaviour.READ_1KB_PER_S;
                int r = in.read(chunk, n, slow ? Math.min(1024, size - n) : size - n);
                if (r < 0) {
                    throw new IOException("body cut short");
                }
                n += r;
                if (slow) {
                    Thread.sleep(1000L * r / 1024);
                }
            }
            body.write(chunk);
            readLine(in);
        }
    }

    private static String decode(String encoding, byte[] raw) throws IOException {
        if (!"deflate".equals(encoding)) {
            return new String(raw, StandardCharsets.UTF_8);
        }
        try (InputStream in = new InflaterInputStream(new java.io.ByteArrayInputStream(raw))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
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
    public void close() throws IOException {
        down();
    }
}
