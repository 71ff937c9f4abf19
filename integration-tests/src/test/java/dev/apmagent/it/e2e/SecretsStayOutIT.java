package dev.apmagent.it.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.apmagent.it.Jdk;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Issue #17's end-to-end check: the demo as a user would start it ({@code -Xmx256m}, {@code max_buffer_size=1gb},
 * {@code include_process_args=true}, a secret token, credentials in {@code server_url}), requests with secrets in
 * query strings and path parameters and five made-up HTTP methods, reporting to a stand-in APM Server on 127.0.0.1
 * (reached through the {@code server_url} with credentials). Transactions arrive, made-up methods share one name, and
 * none of the planted secrets appears in any intake body (metadata included), in the agent's log, or on the demo's
 * standard output or error.
 *
 * <p>Every planted secret contains {@value #MARK}, so that a secret cut short somewhere is still found. All checks are
 * soft: one run reports every leak at once.
 */
class SecretsStayOutIT {

    static final String MARK = "SECRET";
    static final String TOKEN = "tok3n-SECRET-7f1c";
    static final String SERVER_PASSWORD = "srvPa55-SECRET-2b9d";
    static final String QUERY_PASSWORD = "hunter2-SECRET-q1a";
    static final String QUERY_API_KEY = "apikey-SECRET-q2b";
    static final String QUERY_ENCODED_NAME = "encoded-SECRET-q3c";
    static final String PATH_SESSION = "sess-SECRET-p1d";
    static final String PATH_TOKEN = "tokp-SECRET-p2e";
    static final List<String> SECRETS = Arrays.asList(TOKEN, SERVER_PASSWORD, QUERY_PASSWORD, QUERY_API_KEY, QUERY_ENCODED_NAME,
            PATH_SESSION, PATH_TOKEN);
    static final List<String> MADE_UP_METHODS = Arrays.asList("AMZXQZEQ", "BREW", "FROBNICATE", "XYZZY", "PURGEALL");

    /** Request target (path and query, as sent) to the name and, where a secret was in it, the sanitized URL parts. */
    static final Map<String, String[]> REQUESTS = new LinkedHashMap<>();

    static {
        REQUESTS.put("/hello?password=" + QUERY_PASSWORD + "&id=1",
                new String[] {"HelloServlet#doGet", "/hello", "password=[REDACTED]&id=1"});
        REQUESTS.put("/users/1;jsessionid=" + PATH_SESSION + "?api_key=" + QUERY_API_KEY,
                new String[] {"UserServlet#doGet", "/users/1;jsessionid=[REDACTED]", "api_key=[REDACTED]"});
        REQUESTS.put("/hello?pass%77ord=" + QUERY_ENCODED_NAME + "&q=ok",
                new String[] {"HelloServlet#doGet", "/hello", "pass%77ord=[REDACTED]&q=ok"});
        REQUESTS.put("/accounts/2;token=" + PATH_TOKEN,
                new String[] {"AccountServlet#doGet", "/accounts/2;token=[REDACTED]", null});
    }

    private static final ObjectMapper json = new ObjectMapper();

    @Test
    void noSecretInAnyEventOrLogLineAndMadeUpMethodsShareOneName(@TempDir Path dir) throws Exception {
        Jdk jdk = Jdk.all().get(0);
        Path log = dir.resolve("agent.log");
        SoftAssertions soft = new SoftAssertions();
        try (StandInApmServer server = new StandInApmServer()) {
            String serverUrl = server.url().replace("http://", "http://apmuser:" + SERVER_PASSWORD + "@");
            String stdout;
            String stderr;
            int exit;
            try (Demo demo = Demo.start(Demo.jvm(jdk)
                    .withAgent("server_url=" + serverUrl + ",secret_token=" + TOKEN + ",max_buffer_size=1gb,include_process_args=true"
                            + ",log_file=" + log + ",log_level=debug,api_request_time=1s")
                    .jvmArg("-Xmx256m"))) {
                for (String target : REQUESTS.keySet()) {
                    soft.assertThat(Demo.get(demo.baseUrl + target, 30_000).status).as(target).isLessThan(500);
                }
                URL base = new URL(demo.baseUrl);
                for (String method : MADE_UP_METHODS) {
                    soft.assertThat(rawStatus(base, method, "/hello")).as(method).isEqualTo(501); // HttpServlet's answer
                }
                awaitTransactions(server, REQUESTS.size() + MADE_UP_METHODS.size());
                exit = demo.stop();
                stdout = demo.jvm.stdout();
                stderr = demo.jvm.stderr();
            }
            soft.assertThat(exit).as("the demo exits normally").isZero();

            // transactions arrived, sanitized, with bounded names
            List<JsonNode> transactions = transactions(server);
            Set<String> names = new TreeSet<>();
            List<String> otherMethods = new ArrayList<>();
            for (JsonNode t : transactions) {
                names.add(t.path("name").asText());
                if (t.path("name").asText().equals("HelloServlet#doOther")) {
                    otherMethods.add(t.path("context").path("request").path("method").asText());
                }
            }
            soft.assertThat(otherMethods).as("each made-up method: one transaction named HelloServlet#doOther, its method kept")
                    .containsExactlyInAnyOrderElementsOf(MADE_UP_METHODS);
            for (String method : MADE_UP_METHODS) {
                soft.assertThat(names.toString()).as("no name made of a made-up method").doesNotContainIgnoringCase(method);
            }
            for (Map.Entry<String, String[]> e : REQUESTS.entrySet()) {
                String[] expected = e.getValue();
                JsonNode t = find(transactions, expected[1], expected[2]);
                soft.assertThat(t).as("a transaction for %s with pathname %s and search %s among %s", e.getKey(), expected[1],
                        expected[2], urls(transactions)).isNotNull();
                if (t != null) {
                    soft.assertThat(t.path("name").asText()).as(e.getKey()).isEqualTo(expected[0]);
                }
            }

            // no secret anywhere
            List<String> bodies = server.acceptedBodies();
            soft.assertThat(bodies).as("intake requests").isNotEmpty();
            soft.assertThat(String.join("\n", bodies)).as("a metadata line with the process's arguments")
                    .contains("\"metadata\"").contains("\"argv\"");
            String agentLog = Files.isRegularFile(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
            soft.assertThat(agentLog).as("the agent wrote its log").isNotEmpty();
            Map<String, String> outputs = new LinkedHashMap<>();
            outputs.put("intake bodies", String.join("\n", bodies));
            outputs.put("agent log", agentLog);
            outputs.put("demo stdout", stdout);
            outputs.put("demo stderr", stderr);
            for (Map.Entry<String, String> o : outputs.entrySet()) {
                for (String secret : SECRETS) {
                    soft.assertThat(o.getValue()).as("%s contains the secret %s: %s", o.getKey(), secret, around(o.getValue(), secret))
                            .doesNotContain(secret);
                }
                soft.assertThat(o.getValue()).as("%s contains part of a secret: %s", o.getKey(), around(o.getValue(), MARK))
                        .doesNotContain(MARK);
            }
        }
        soft.assertAll();
    }

    /** The transaction whose URL has this pathname and search (null: none), or null. */
    private static JsonNode find(List<JsonNode> transactions, String pathname, String search) {
        for (JsonNode t : transactions) {
            JsonNode url = t.path("context").path("request").path("url");
            String actualSearch = url.path("search").isMissingNode() ? null : url.path("search").asText();
            if (url.path("pathname").asText().equals(pathname) && Objects.equals(actualSearch, search)) {
                return t;
            }
        }
        return null;
    }

    private static List<String> urls(List<JsonNode> transactions) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : transactions) {
            out.add(t.path("context").path("request").path("url").path("full").asText());
        }
        return out;
    }

    private static List<JsonNode> transactions(StandInApmServer server) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : server.acceptedLines()) {
            if (line.startsWith("{\"transaction\"")) {
                out.add(json.readTree(line).path("transaction"));
            }
        }
        return out;
    }

    private static void awaitTransactions(StandInApmServer server, int count) throws IOException, InterruptedException {
        for (int i = 0; i < 300 && transactions(server).size() < count; i++) {
            Thread.sleep(100);
        }
    }

    /** A request with any method (HttpURLConnection sends only the standard ones); returns the status. */
    private static int rawStatus(URL base, String method, String target) throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write((method + " " + target + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(reply);
            String head = reply.toString(StandardCharsets.ISO_8859_1);
            return head.length() >= 12 ? Integer.parseInt(head.substring(9, 12)) : -1;
        }
    }

    /** Up to 120 characters around the first occurrence of {@code text}, for the failure message. */
    private static String around(String in, String text) {
        int at = in.indexOf(text);
        if (at < 0) {
            return "none";
        }
        return "..." + in.substring(Math.max(0, at - 80), Math.min(in.length(), at + text.length() + 40)).replace('\n', ' ') + "...";
    }
}
