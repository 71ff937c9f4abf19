package dev.apmagent.plugin.jdkhttp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;

/**
 * A real HTTP server on loopback for the plugin's tests (the JDK's own): {@code /ok} 200, {@code /missing} 404,
 * {@code /error} 500, {@code /slow} answers after 2 s. Every request's {@code traceparent} (or "none") is recorded.
 */
final class TestServer implements AutoCloseable {

    final HttpServer server;
    final ConcurrentLinkedQueue<String> traceparents = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> elasticTraceparents = new ConcurrentLinkedQueue<>();

    TestServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String tp = exchange.getRequestHeaders().getFirst("traceparent");
        traceparents.add(tp == null ? "none" : tp);
        String etp = exchange.getRequestHeaders().getFirst("elastic-apm-traceparent");
        elasticTraceparents.add(etp == null ? "none" : etp);
        try (InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
        }
        String path = exchange.getRequestURI().getPath();
        int status = 200;
        if (path.startsWith("/missing")) {
            status = 404;
        } else if (path.startsWith("/error")) {
            status = 500;
        } else if (path.startsWith("/slow")) {
            try {
                Thread.sleep(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] body = ("status " + status).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** A port nothing listens on: connections to it are refused. */
    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The traceparent of the last request the server received. */
    String lastTraceparent() {
        String last = null;
        for (String tp : traceparents) {
            last = tp;
        }
        return last;
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
