package dev.apmagent.it.httpclient;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import dev.apmagent.it.TestPaths;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import testapp.httpclient.HttpClientApp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Apache HttpClient on the real agent jar (JDK 17 and 25), every supported line at its oldest and newest version, plus
 * Spring's RestTemplate and RestClient over HttpClient 5, each in a class loader of its own inside one forked JVM
 * ({@link HttpClientApp}: an embedded Tomcat under the agent that calls itself). For every case run inside a traced
 * request: exactly one exit span (a redirect, the exec chain's handlers, Spring's layer: nothing nested), its fields,
 * its outcome, and the downstream service's transaction in the same trace with the exit span as its parent; every
 * event valid against the intake schema. With nothing active: no span, no header, no allocation.
 */
class ApacheHttpClientIT {

    private static final String APP_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String APP_SPAN_ID = "b7ad6b7169203331";
    private static final String SCENARIOS = "testapp.httpclient.scenario.";

    /** name, jar directory, scenario class. */
    private static final String[][] LIBRARIES = {
            {"apache-4.3", "apache-4.3", "Apache4Scenarios"},
            {"apache-4.5", "apache-4.5", "Apache4Scenarios"},
            {"async-4.1", "async-4.1", "Apache4AsyncScenarios"},
            {"apache-5.1", "apache-5.1", "Apache5Scenarios"},
            {"async-5.1", "apache-5.1", "Apache5AsyncScenarios"},
            {"apache-5.6", "apache-5.6", "Apache5Scenarios"},
            {"async-5.6", "apache-5.6", "Apache5AsyncScenarios"},
            {"spring-6", "spring-6", "SpringScenarios"},
    };
    private static final String[] CLASSIC = {"apache-4.3", "apache-4.5", "apache-5.1", "apache-5.6"};
    private static final String[] ASYNC = {"async-4.1", "async-5.1", "async-5.6"};

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void oneExitSpanPerRequestInTheCallersTraceOnEveryVersion(Jdk jdk, @TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.ndjson");
        Path libs = Paths.get(System.getProperty("apm.httpclient.libs"));
        List<String> args = new ArrayList<>();
        for (String[] lib : LIBRARIES) {
            args.add(lib[0] + "=" + libs.resolve(lib[1]) + "=" + SCENARIOS + lib[2]);
        }
        ForkedJvm jvm = ForkedJvm.on(jdk)
                .withAgent("output_file=" + events + ",log_file=" + dir.resolve("agent.log") + ",metrics_interval=0,service_name=httpclient-it");
        try (Stream<Path> tomcat = Files.list(Paths.get(System.getProperty("apm.containers.dir"), "tomcat10"))) {
            tomcat.sorted().forEach(jvm::classPath); // Tomcat 10.1: the embedded core and the annotations API
        }
        ForkedJvm.Result run = jvm.main(HttpClientApp.class, args.toArray(new String[0]))
                .timeoutSeconds(180)
                .run();
        assertThat(run.exitCode).as(run.toString()).isZero();
        Map<String, String> results = results(run.stdout);
        EventFile file = EventFile.readAndValidate(events); // every event against the intake v2 schema
        Checks checks = new Checks(file, results, run.toString());

        for (String lib : CLASSIC) {
            checks.success(lib + "-ok", 200);
            checks.failure(lib + "-notFound", 404);
            checks.failure(lib + "-serverError", 500);
            checks.thrown(lib + "-refused", "HttpHostConnectException");
            checks.thrown(lib + "-timeout", "java.net.SocketTimeoutException");
            assertThat(checks.result(lib + "-unread")).startsWith("200 (body not read) then 200 ");
            checks.exitSpan(lib + "-unread", "success", 200);
            checks.exitSpan(lib + "-unread-next", "success", 200); // the same client goes on
            checks.applicationTraceparentKept(lib + "-appTraceparent");
            checks.redirectIsOneSpan(lib + "-redirect");
            checks.untraced(lib + "-untraced");
            assertThat(checks.result(lib + "-instrumented")).startsWith("called ");
            checks.exitSpan(lib + "-instrumented", "success", 200); // the handler the allocation case measures is advised
            assertThat(checks.result(lib + "-allocation")).as("nothing active: the advice allocates nothing")
                    .matches("allocated ([0-9]{1,3}) bytes in 20000 calls");
        }
        for (String lib : ASYNC) {
            checks.success(lib + "-ok", 200);
            checks.failure(lib + "-serverError", 500);
            checks.thrown(lib + "-refused", "ConnectException");
            checks.applicationTraceparentKept(lib + "-appTraceparent");
            checks.success(lib + "-callbackThrows", 200);
            checks.untraced(lib + "-untraced");
        }
        checks.success("spring-6-restTemplate", 200);
        checks.success("spring-6-restClient", 200);

        List<JsonNode> httpSpans = file.all("span").stream().filter(s -> "http".equals(s.path("subtype").asText())).collect(Collectors.toList());
        assertThat(httpSpans).as("no span but the cases' (a nested duplicate would be one more)").hasSize(checks.checkedSpans());
    }

    private static Map<String, String> results(String stdout) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("^RESULT (\\S+) (\\S+) => (.*)$", Pattern.MULTILINE).matcher(stdout);
        while (m.find()) {
            out.put(m.group(1) + "-" + m.group(2), m.group(3));
        }
        return out;
    }

    /** The assertions of one run's events. */
    private static final class Checks {
        private final EventFile file;
        private final Map<String, String> results;
        private final String output;
        private int spans;

        Checks(EventFile file, Map<String, String> results, String output) {
            this.file = file;
            this.results = results;
            this.output = output;
        }

        int checkedSpans() {
            return spans;
        }

        String result(String tag) {
            assertThat(results).as(output).containsKey(tag);
            return results.get(tag);
        }

        /** The one span of case {@code tag}, its fields, and its parent, the traced request's transaction. */
        JsonNode exitSpan(String tag, String outcome, int status) {
            List<JsonNode> found = spansOf(tag);
            assertThat(found).as("exit spans of " + tag + " (" + results.get(tag) + ")").hasSize(1);
            spans++;
            JsonNode span = found.get(0);
            String url = span.path("context").path("http").path("url").asText();
            int port = Integer.parseInt(url.replaceAll("^http://127\\.0\\.0\\.1:([0-9]+)/.*$", "$1"));
            assertThat(span.path("name").asText()).isEqualTo("GET 127.0.0.1");
            assertThat(span.path("type").asText()).isEqualTo("external");
            assertThat(span.path("subtype").asText()).isEqualTo("http");
            assertThat(span.path("outcome").asText()).as(tag).isEqualTo(outcome);
            assertThat(span.path("context").path("http").path("method").asText()).isEqualTo("GET");
            if (status > 0) {
                assertThat(span.path("context").path("http").path("response").path("status_code").asInt()).as(tag).isEqualTo(status);
            } else {
                assertThat(span.path("context").path("http").path("response").has("status_code")).as(tag + ": no response, no status").isFalse();
            }
            assertThat(span.path("context").path("destination").path("address").asText()).isEqualTo("127.0.0.1");
            assertThat(span.path("context").path("destination").path("port").asInt()).isEqualTo(port);
            assertThat(span.path("context").path("service").path("target").path("type").asText()).isEqualTo("http");
            assertThat(span.path("context").path("service").path("target").path("name").asText()).isEqualTo("127.0.0.1:" + port);
            List<JsonNode> parent = file.all("transaction").stream()
                    .filter(t -> t.path("id").asText().equals(span.path("parent_id").asText())).collect(Collectors.toList());
            assertThat(parent).as(tag + ": the span's parent is the traced request").hasSize(1);
            assertThat(parent.get(0).path("trace_id").asText()).isEqualTo(span.path("trace_id").asText());
            return span;
        }

        List<JsonNode> spansOf(String tag) {
            return file.all("span").stream()
                    .filter(s -> s.path("context").path("http").path("url").asText().contains("case=" + tag + "&"))
                    .collect(Collectors.toList());
        }

        /** The transactions of the called service whose parent is {@code span}, all in its trace. */
        List<JsonNode> downstreamOf(JsonNode span) {
            List<JsonNode> out = file.all("transaction").stream()
                    .filter(t -> t.path("parent_id").asText().equals(span.path("id").asText())).collect(Collectors.toList());
            for (JsonNode t : out) {
                assertThat(t.path("trace_id").asText()).isEqualTo(span.path("trace_id").asText());
            }
            return out;
        }

        private void answered(String tag, JsonNode span, int status) {
            String traceparent = "traceparent=00-" + span.path("trace_id").asText() + "-" + span.path("id").asText() + "-01 count=1";
            assertThat(result(tag)).as("what the called service received, once").isEqualTo(status + " " + traceparent);
            assertThat(downstreamOf(span)).as(tag + ": the called service's transaction").hasSize(1);
        }

        void success(String tag, int status) {
            answered(tag, exitSpan(tag, "success", status), status);
        }

        void failure(String tag, int status) {
            answered(tag, exitSpan(tag, "failure", status), status);
        }

        void thrown(String tag, String exception) {
            assertThat(result(tag)).as("the library's own exception, unchanged").startsWith("threw ").contains(exception);
            JsonNode span = exitSpan(tag, "failure", -1);
            List<JsonNode> errors = file.all("error").stream()
                    .filter(e -> e.path("parent_id").asText().equals(span.path("id").asText())).collect(Collectors.toList());
            assertThat(errors).as(tag + ": the exception captured on the span").hasSize(1);
            assertThat(errors.get(0).path("exception").path("type").asText()).contains(exception);
        }

        void applicationTraceparentKept(String tag) {
            assertThat(result(tag)).isEqualTo("200 traceparent=00-" + APP_TRACE_ID + "-" + APP_SPAN_ID + "-01 count=1");
            exitSpan(tag, "success", 200);
            List<JsonNode> downstream = file.all("transaction").stream()
                    .filter(t -> t.path("trace_id").asText().equals(APP_TRACE_ID)
                            && t.path("parent_id").asText().equals(APP_SPAN_ID)).collect(Collectors.toList());
            assertThat(downstream).as(tag + ": the called service continues the application's trace").isNotEmpty();
        }

        void redirectIsOneSpan(String tag) {
            JsonNode span = exitSpan(tag, "success", 200); // the 302 and the request it redirects to: one span
            String traceparent = "traceparent=00-" + span.path("trace_id").asText() + "-" + span.path("id").asText() + "-01 count=1";
            assertThat(result(tag)).isEqualTo("200 " + traceparent);
            assertThat(downstreamOf(span)).as(tag + ": /redirect and /downstream, both children of the one span").hasSize(2);
        }

        void untraced(String tag) {
            assertThat(result(tag)).isEqualTo("200 traceparent=null count=0");
            assertThat(spansOf(tag)).isEmpty();
        }
    }
}
