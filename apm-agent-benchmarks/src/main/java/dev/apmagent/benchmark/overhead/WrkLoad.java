package dev.apmagent.benchmark.overhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Load from {@code wrk} (Debian's package), one process per window: {@code wrk -t1 -c<connections>}, keep-alive,
 * started from the harness JVM and so pinned with it. A Lua {@code done} hook prints the window's totals and latency
 * percentiles in a form this class parses. wrk is an event loop in C: one thread keeps 16 or 64 connections busy with a
 * few microseconds of CPU per request, where the harness's own Java generator spends tens, so the application core is
 * really saturated and the sink's core is not taken by the load generator.
 *
 * <p>With {@code ratePerSecond > 0} each connection waits {@code connections / rate} (whole milliseconds, wrk's
 * {@code delay} hook) after every response before sending its next request: an open-ish load at about that rate that
 * leaves the application core partly idle, as most production services run. The measured rate is what counts; it sits
 * a little under the target because the wait starts after the response.
 */
final class WrkLoad implements Load {

    private final String url;
    private final int connections;
    private final Path script;

    private WrkLoad(String url, int connections, Path script) {
        this.url = url;
        this.connections = connections;
        this.script = script;
    }

    static WrkLoad start(String host, int port, String path, int connections, int ratePerSecond) throws IOException {
        StringBuilder lua = new StringBuilder();
        if (ratePerSecond > 0) {
            long delayMillis = Math.max(1, Math.round(connections * 1000.0 / ratePerSecond));
            lua.append("function delay()\n  return ").append(delayMillis).append("\nend\n");
        }
        lua.append("""
                done = function(summary, latency, requests)
                  local e = summary.errors
                  io.write(string.format("wrk-summary requests=%d duration_us=%d status_errors=%d"
                    .. " socket_errors=%d p50_us=%d p99_us=%d p999_us=%d\\n",
                    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
                    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
                end
                """);
        Path script = Files.createTempFile("overhead-wrk", ".lua");
        script.toFile().deleteOnExit();
        Files.writeString(script, lua);
        return new WrkLoad("http://" + host + ":" + port + path, connections, script);
    }

    @Override
    public LoadWindow run(double seconds) throws IOException, InterruptedException {
        long whole = Math.max(1, Math.round(seconds));
        List<String> command = List.of("wrk", "-t1", "-c" + connections, "-d" + whole + "s", "--timeout", "30s",
                "-s", script.toString(), url);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(whole + 60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return parse(out);
    }

    /** Reads the line the Lua {@code done} hook printed. */
    static LoadWindow parse(String wrkOutput) throws IOException {
        for (String line : wrkOutput.split("\n")) {
            if (!line.startsWith("wrk-summary ")) {
                continue;
            }
            Map<String, Long> v = new HashMap<>();
            for (String field : line.substring("wrk-summary ".length()).trim().split(" ")) {
                int eq = field.indexOf('=');
                v.put(field.substring(0, eq), Long.parseLong(field.substring(eq + 1)));
            }
            long statusErrors = v.get("status_errors");
            return new LoadWindow(v.get("requests") - statusErrors, statusErrors + v.get("socket_errors"),
                    v.get("duration_us") / 1e6, v.get("p50_us") * 1000, v.get("p99_us") * 1000,
                    v.get("p999_us") * 1000);
        }
        throw new IOException("no summary line in wrk's output:\n" + wrkOutput);
    }

    @Override
    public void close() {
        // each window's process has exited
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "wrk -t1 -c%d %s", connections, url);
    }
}
