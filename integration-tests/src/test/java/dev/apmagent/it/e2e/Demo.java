package dev.apmagent.it.e2e;

import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The demo application ({@code ../target/apm-agent-demo.jar}) in serve mode on a forked JVM, and HTTP calls to it. */
final class Demo implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("demo listening on (http://127\\.0\\.0\\.1:\\d+)");

    final ForkedJvm.Running jvm;
    final String baseUrl;

    private Demo(ForkedJvm.Running jvm, String baseUrl) {
        this.jvm = jvm;
        this.baseUrl = baseUrl;
    }

    static Path jar() {
        Path jar = Paths.get(System.getProperty("apm.agent.jar")).getParent().getParent().getParent()
                .resolve("target").resolve("apm-agent-demo.jar").normalize();
        if (!jar.toFile().isFile()) {
            throw new IllegalStateException("demo jar not built: " + jar + " (./mvnw -B -q -DskipTests package)");
        }
        return jar;
    }

    /** A forked JVM that will run the demo jar in serve mode; add the agent and JVM arguments, then {@link #start}. */
    static ForkedJvm jvm(Jdk jdk) {
        return ForkedJvm.on(jdk).jar(jar(), "serve");
    }

    static Demo start(ForkedJvm jvm) throws IOException, InterruptedException {
        ForkedJvm.Running running = jvm.start();
        try {
            String printed = running.awaitStdout("demo listening on", 60);
            Matcher m = LISTENING.matcher(printed);
            if (!m.find()) {
                throw new AssertionError("no URL in " + printed);
            }
            return new Demo(running, m.group(1));
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            running.close();
            throw e;
        }
    }

    /** GET, returning "status body" (the body of error replies too). */
    Response get(String path) throws IOException {
        return get(baseUrl + path, 30_000);
    }

    static Response get(String url, int timeoutMillis) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        connection.setConnectTimeout(timeoutMillis);
        connection.setReadTimeout(timeoutMillis);
        int status = connection.getResponseCode();
        InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        String body = "";
        if (in != null) {
            try (InputStream stream = in) {
                body = new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        return new Response(status, body);
    }

    /** Closes the demo's standard input (it then stops Tomcat and Dubbo and exits) and returns its exit code. */
    int stop() throws IOException, InterruptedException {
        return jvm.stop();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        jvm.close();
    }

    /** What one HTTP call returned. */
    static final class Response {
        final int status;
        final String body;

        Response(int status, String body) {
            this.status = status;
            this.body = body;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Response && ((Response) o).status == status && ((Response) o).body.equals(body);
        }

        @Override
        public int hashCode() {
            return status * 31 + body.hashCode();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }
}
