package dev.apmagent.plugin.okhttp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's own HTTP server on 127.0.0.1 (never instrumented), recording the {@code traceparent} of each request it
 * gets: {@code /ok} (200, a body), {@code /status/N} (status N), {@code /slow} (answers after 10 s),
 * {@code /redirect} (302 to {@code /ok}).
 */
final class LoopbackServer implements AutoCloseable {

    private final HttpServer server;
    private final List<String> traceparents = new ArrayList<>();

    LoopbackServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** The traceparent of each request received so far (null for a request without one), in order; then forgets them. */
    synchronized List<String> takeTraceparents() {
        List<String> taken = new ArrayList<>(traceparents);
        traceparents.clear();
        return taken;
    }

    private void handle(HttpExchange exchange) throws IOException {
        synchronized (this) {
            traceparents.add(exchange.getRequestHeaders().getFirst("traceparent"));
        }
        String path = exchange.getRequestURI().getPath();
        try {
            if (path.startsWith("/status/")) {
                respond(exchange, Integer.parseInt(path.substring("/status/".length())), "status");
            } else if (path.equals("/slow")) {
                TimeUnit.SECONDS.sleep(10); // far beyond the client's read timeout, even on a loaded machine; close() interrupts it
                respond(exchange, 200, "late");
            } else if (path.equals("/redirect")) {
                exchange.getResponseHeaders().add("Location", "/ok");
                respond(exchange, 302, "");
            } else {
                respond(exchange, 200, "hello");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        } catch (IOException e) {
            // the client gave up (a timeout test): nothing to do
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
