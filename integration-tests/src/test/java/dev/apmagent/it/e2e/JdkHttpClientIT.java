package dev.apmagent.it.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.Jdk;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Outgoing HTTP with the JDK's two clients, on the real agent jar (JDK 17 and JDK 25), against the demo's own embedded
 * Tomcat, itself under the agent: the demo's {@code /out/<case>} (demo.OutgoingHttp) calls the demo once, with
 * HttpURLConnection or java.net.http.HttpClient. One forked JVM per JDK serves every case. In the agent's
 * {@code output_file} (every line schema-validated, span types per span_types.json): the calling transaction's only
 * child is the exit span, and the called servlet's transaction has the same trace id and the exit span as its parent;
 * a call made where nothing is active records nothing and sends no header.
 */
class JdkHttpClientIT {

    private static final String[] CASES = {
        "huc-ok", "huc-404", "huc-500", "huc-refused", "huc-timeout", "huc-unread", "huc-own-traceparent",
        "jdk-ok", "jdk-404", "jdk-500", "jdk-refused", "jdk-timeout", "jdk-own-traceparent", "jdk-async-ok", "jdk-async-throw"};
    private static final String OWN_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String OWN_PARENT_ID = "b7ad6b7169203331";

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void outgoingRequestsAreExitSpansContinuedByTheirTargets(Jdk jdk, @TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.ndjson");
        Map<String, String> answers = new LinkedHashMap<>();
        String base;
        try (Demo demo = Demo.start(Demo.jvm(jdk)
                .withAgent("output_file=" + events + ",log_file=" + dir.resolve("agent.log") + ",metrics_interval=0"))) {
            base = demo.baseUrl;
            for (String c : CASES) {
                answers.put(c, demo.get("/out/" + c).toString());
            }
            answers.put("untraced", demo.get("/out/untraced").toString());
            assertThat(demo.stop()).as(demo.jvm.toString()).isZero();
        }
        int port = Integer.parseInt(base.substring(base.lastIndexOf(':') + 1));

        // what the application saw: the clients behave as without the agent
        assertThat(answers.get("huc-ok")).isEqualTo("200 huc-ok: 200 status 200");
        assertThat(answers.get("huc-404")).isEqualTo("200 huc-404: 404 status 404");
        assertThat(answers.get("huc-refused")).isEqualTo("200 huc-refused: threw java.net.ConnectException");
        assertThat(answers.get("huc-timeout")).isEqualTo("200 huc-timeout: threw java.net.SocketTimeoutException");
        assertThat(answers.get("jdk-500")).isEqualTo("200 jdk-500: 500 status 500");
        assertThat(answers.get("jdk-refused")).isEqualTo("200 jdk-refused: threw java.net.ConnectException");
        assertThat(answers.get("jdk-timeout")).isEqualTo("200 jdk-timeout: threw java.net.http.HttpTimeoutException");
        assertThat(answers.get("jdk-async-ok")).isEqualTo("200 jdk-async-ok: 200 status 200");
        assertThat(answers.get("jdk-async-throw")).isEqualTo("200 jdk-async-throw: callback threw callback of the application");

        EventFile file = EventFile.readAndValidate(events);
        Map<String, JsonNode> callers = new LinkedHashMap<>();
        for (JsonNode t : file.transactions("OutgoingServlet#doGet")) {
            callers.put(t.path("context").path("request").path("url").path("pathname").asText().substring("/out/".length()), t);
        }
        // with nothing active on the calling thread: no span, no header, the target starts a trace of its own
        assertThat(answers.get("untraced")).isEqualTo("200 untraced: 201 status 201");
        JsonNode untraced = callers.remove("untraced");
        assertThat(file.childrenOf(untraced.path("id").asText())).as("nothing recorded with nothing active").isEmpty();
        List<JsonNode> fresh = new ArrayList<>();
        for (JsonNode t : file.transactions("StatusServlet#doGet")) {
            if (t.path("context").path("request").path("url").path("pathname").asText().equals("/status/201")) {
                fresh.add(t);
            }
        }
        assertThat(fresh).hasSize(1);
        assertThat(fresh.get(0).has("parent_id")).as("no traceparent was sent").isFalse();
        assertThat(fresh.get(0).path("context").path("request").path("headers").has("traceparent")).isFalse();
        assertThat(fresh.get(0).path("trace_id").asText()).isNotEqualTo(untraced.path("trace_id").asText());

        assertThat(callers.keySet()).as("one calling transaction per case").containsExactlyInAnyOrder(CASES);

        for (String c : CASES) {
            JsonNode caller = callers.get(c);
            List<JsonNode> children = file.childrenOf(caller.path("id").asText());
            assertThat(children).as(c + ": one exit span, no nested duplicate").hasSize(1);
            JsonNode span = children.get(0);
            assertThat(span.path("name").asText()).as(c).isEqualTo("GET 127.0.0.1");
            assertThat(span.path("type").asText()).isEqualTo("external");
            assertThat(span.path("subtype").asText()).isEqualTo("http");
            assertThat(span.path("trace_id").asText()).isEqualTo(caller.path("trace_id").asText());
            assertThat(span.path("transaction_id").asText()).isEqualTo(caller.path("id").asText());
            JsonNode context = span.path("context");
            assertThat(context.path("http").path("method").asText()).isEqualTo("GET");
            assertThat(context.path("http").path("url").asText()).as(c).startsWith("http://127.0.0.1:");
            assertThat(context.path("destination").path("address").asText()).isEqualTo("127.0.0.1");
            int destinationPort = context.path("destination").path("port").asInt();
            assertThat(context.path("service").path("target").path("type").asText()).isEqualTo("http");
            assertThat(context.path("service").path("target").path("name").asText()).isEqualTo("127.0.0.1:" + destinationPort);
            assertThat(context.path("destination").path("service").path("resource").asText()).isEqualTo("127.0.0.1:" + destinationPort);

            List<JsonNode> targets = continuing(file, span.path("id").asText());
            boolean refused = c.endsWith("refused");
            if (refused) {
                assertThat(destinationPort).isNotEqualTo(port);
                assertThat(targets).as(c + ": nothing answered").isEmpty();
            } else {
                assertThat(destinationPort).isEqualTo(port);
            }
            if (c.endsWith("own-traceparent")) {
                assertThat(targets).as(c + ": the target continues the application's traceparent, not the span").isEmpty();
                List<JsonNode> own = new ArrayList<>();
                // both clients send the same traceparent of the application's; their user agents tell them apart
                String agent = c.startsWith("huc") ? "Java/" : "Java-http-client/";
                for (JsonNode t : file.all("transaction")) {
                    if (t.path("trace_id").asText().equals(OWN_TRACE_ID)
                            && t.path("context").path("request").path("headers").path("user-agent").asText().startsWith(agent)) {
                        own.add(t);
                    }
                }
                assertThat(own).hasSize(1);
                assertThat(own.get(0).path("parent_id").asText()).isEqualTo(OWN_PARENT_ID);
                assertThat(span.path("outcome").asText()).isEqualTo("success");
                continue;
            }
            if (!refused) {
                assertThat(targets).as(c + ": the called servlet's transaction has the exit span as its parent").hasSize(1);
                assertThat(targets.get(0).path("trace_id").asText()).isEqualTo(caller.path("trace_id").asText());
            }
            String outcome = span.path("outcome").asText();
            int status = context.path("http").path("response").path("status_code").asInt(-1);
            List<JsonNode> errors = errorsOf(file, span.path("id").asText());
            if (c.endsWith("-404") || c.endsWith("-500")) {
                assertThat(status).as(c).isEqualTo(Integer.parseInt(c.substring(c.length() - 3)));
                assertThat(outcome).as(c).isEqualTo("failure");
                assertThat(errors).as(c + ": a status is no exception").isEmpty();
            } else if (refused || c.endsWith("timeout")) {
                assertThat(status).as(c).isEqualTo(-1);
                assertThat(outcome).as(c).isEqualTo("failure");
                assertThat(errors).as(c + ": the exception is captured on the span").hasSize(1);
                assertThat(targets.size()).as(c).isEqualTo(refused ? 0 : 1);
            } else {
                assertThat(status).as(c).isEqualTo(200);
                assertThat(outcome).as(c).isEqualTo("success");
                assertThat(errors).as(c).isEmpty();
            }
        }
        JsonNode hucOk = file.childrenOf(callers.get("huc-ok").path("id").asText()).get(0);
        assertThat(hucOk.path("context").path("http").path("url").asText()).isEqualTo(base + "/status/200?q=1");
    }

    private static List<JsonNode> continuing(EventFile file, String spanId) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode t : file.all("transaction")) {
            if (spanId.equals(t.path("parent_id").asText())) {
                out.add(t);
            }
        }
        return out;
    }

    private static List<JsonNode> errorsOf(EventFile file, String spanId) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : file.all("error")) {
            if (spanId.equals(e.path("parent_id").asText())) {
                out.add(e);
            }
        }
        return out;
    }
}
