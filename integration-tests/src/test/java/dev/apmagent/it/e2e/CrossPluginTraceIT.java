package dev.apmagent.it.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.Jdk;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One HTTP request through every plugin, on the real agent jar (JDK 17 and JDK 25): the demo's servlet
 * {@code /accounts/2} calls the Dubbo service {@code AccountService#name}, whose provider (same JVM, dubbo protocol on
 * loopback) queries PostgreSQL. The agent's {@code output_file} (every line schema-validated) must hold one trace:
 * servlet transaction -> Dubbo exit span -> provider transaction (parent = the exit span) -> JDBC spans, with no event
 * whose parent is missing.
 */
class CrossPluginTraceIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void servletToDubboToPostgresIsOneTrace(Jdk jdk, @TempDir Path dir) throws Exception {
        Postgres.assumeReachable();
        Path events = dir.resolve("events.ndjson");
        Demo.Response response;
        int exit;
        try (Demo demo = Demo.start(Demo.jvm(jdk)
                .withAgent("output_file=" + events + ",log_file=" + dir.resolve("agent.log") + ",metrics_interval=0")
                .jvmArg("-Ddemo.rpc.db.url=" + Postgres.url())
                .jvmArg("-Ddemo.rpc.db.user=" + Postgres.user()))) {
            response = demo.get("/accounts/2");
            exit = demo.stop();
            assertThat(exit).as(demo.jvm.toString()).isZero();
        }
        assertThat(response).hasToString("200 account 2: bob");

        EventFile file = EventFile.readAndValidate(events);
        List<JsonNode> servlet = file.transactions("AccountServlet#doGet");
        assertThat(servlet).as("one servlet transaction").hasSize(1);
        JsonNode root = servlet.get(0);
        String traceId = root.path("trace_id").asText();
        assertThat(root.has("parent_id")).as("the servlet transaction starts the trace").isFalse();
        assertThat(root.path("type").asText()).isEqualTo("request");

        List<JsonNode> inTrace = new ArrayList<>();
        Map<String, JsonNode> byId = new HashMap<>();
        for (String type : new String[] {"transaction", "span", "error"}) {
            for (JsonNode event : file.all(type)) {
                assertThat(event.path("trace_id").asText()).as("every event of the run belongs to the one trace: " + event)
                        .isEqualTo(traceId);
                inTrace.add(event);
                byId.put(event.path("id").asText(), event);
            }
        }
        for (JsonNode event : inTrace) {
            if (event != root) {
                assertThat(byId).as("no orphan: the parent of " + event + " is in the trace")
                        .containsKey(event.path("parent_id").asText());
            }
        }

        List<JsonNode> dubboSpans = file.childrenOf(root.path("id").asText());
        assertThat(dubboSpans).as("the servlet transaction's only child is the Dubbo exit span").hasSize(1);
        JsonNode exitSpan = dubboSpans.get(0);
        assertThat(exitSpan.path("name").asText()).isEqualTo("AccountService#name");
        assertThat(exitSpan.path("type").asText()).isEqualTo("external");
        assertThat(exitSpan.path("subtype").asText()).isEqualTo("dubbo");
        assertThat(exitSpan.path("transaction_id").asText()).isEqualTo(root.path("id").asText());
        assertThat(exitSpan.path("context").path("destination").path("address").asText()).isEqualTo("127.0.0.1");

        List<JsonNode> providers = file.transactions("AccountService#name");
        assertThat(providers).as("one provider transaction").hasSize(1);
        JsonNode provider = providers.get(0);
        assertThat(provider.path("parent_id").asText()).as("the provider continues the exit span")
                .isEqualTo(exitSpan.path("id").asText());
        assertThat(provider.path("outcome").asText()).isEqualTo("success");
        assertThat(file.all("transaction")).as("no other transaction").hasSize(2);

        List<JsonNode> jdbc = file.childrenOf(provider.path("id").asText());
        assertThat(jdbc).as("the provider's JDBC spans").isNotEmpty();
        boolean query = false;
        for (JsonNode span : jdbc) {
            assertThat(span.path("type").asText()).isEqualTo("db");
            assertThat(span.path("subtype").asText()).isEqualTo("postgresql");
            assertThat(span.path("transaction_id").asText()).isEqualTo(provider.path("id").asText());
            if (span.path("context").path("db").path("statement").asText().equals("SELECT name FROM apm_demo_accounts WHERE id = ?")) {
                query = true;
                assertThat(span.path("name").asText()).isEqualTo("SELECT FROM apm_demo_accounts");
            }
        }
        assertThat(query).as("the provider's query is among " + jdbc).isTrue();
        assertThat(file.all("span")).as("spans: the exit span and the provider's JDBC spans").hasSize(1 + jdbc.size());
        assertThat(file.all("error")).isEmpty();
    }
}
