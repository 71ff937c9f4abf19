package dev.apmagent.it.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.apmagent.it.EventFile;
import dev.apmagent.it.ForkedJvm;
import dev.apmagent.it.Jdk;
import testapp.misbehaving.MisbehavingApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instrumented code that misbehaves ({@link MisbehavingApp}: a JDBC driver that throws from every method, a servlet
 * that throws {@link Error}, Dubbo calls that time out, caught and uncaught): what the application does (its output,
 * the status codes and bodies of its requests, the exceptions it sees, its exit code) is the same with and without the
 * agent, on JDK 17 and JDK 25, and the agent did trace it (so the comparison is not vacuous). What the throwing driver
 * throws at the JDBC plugin's own calls ({@code Statement.getConnection} while a request is traced) is caught by the
 * plugin and counted: a non-zero {@code agent.plugin.failures} in a health metricset tagged {@code plugin: jdbc}.
 */
class MisbehavingCodeIT {

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void applicationBehavesTheSameWithTheAgent(Jdk jdk, @TempDir Path dir) throws Exception {
        ForkedJvm.Result without = app(jdk).run();
        Path events = dir.resolve("events.ndjson");
        ForkedJvm.Result with = app(jdk)
                .withAgent("output_file=" + events + ",log_file=" + dir.resolve("agent.log") + ",metrics_interval=1s")
                .run();

        assertThat(without.exitCode).as(without.toString()).isEqualTo(3);
        assertThat(without.stdout).as(without.toString())
                .contains("executeQuery: java.sql.SQLException: throwing driver: Statement.executeQuery")
                .contains("GET /error -> 500")
                .contains("GET /rpc-timeout -> 504\ntimed out: true");
        assertThat(with.exitCode).as(with.toString()).isEqualTo(without.exitCode);
        assertThat(with.stdout).isEqualTo(without.stdout);
        assertThat(with.stderr).isEqualTo(without.stderr);

        EventFile file = EventFile.readAndValidate(events);
        assertFailed(file, "JdbcServlet#doGet");
        assertFailed(file, "ErrorServlet#doGet");
        assertFailed(file, "UncaughtRpcTimeoutServlet#doGet");
        boolean errorCaptured = false;
        for (JsonNode error : file.all("error")) {
            errorCaptured |= "the servlet throws an Error".equals(error.path("exception").path("message").asText());
        }
        assertThat(errorCaptured).as("the servlet's Error is captured: " + file.all("error")).isTrue();
        boolean failedQuery = false;
        for (JsonNode span : file.all("span")) {
            failedQuery |= span.path("type").asText().equals("db") && span.path("outcome").asText().equals("failure");
        }
        assertThat(failedQuery).as("a failed JDBC span of the throwing driver").isTrue();
        boolean timedOut = false;
        for (JsonNode span : file.all("span")) {
            timedOut |= span.path("name").asText().equals("AccountService#slow") && span.path("outcome").asText().equals("failure");
        }
        assertThat(timedOut).as("the timed-out Dubbo call is a failed exit span").isTrue();
        long jdbcFailures = 0;
        for (JsonNode metricset : file.all("metricset")) {
            if ("jdbc".equals(metricset.path("tags").path("plugin").asText())) {
                jdbcFailures += metricset.path("samples").path("agent.plugin.failures").path("value").asLong();
            }
        }
        assertThat(jdbcFailures).as("the JDBC plugin counts what the throwing driver threw at it: " + file.all("metricset"))
                .isPositive();
    }

    private static void assertFailed(EventFile file, String name) {
        List<JsonNode> transactions = file.transactions(name);
        assertThat(transactions).as(name).isNotEmpty();
        for (JsonNode t : transactions) {
            assertThat(t.path("outcome").asText()).as(name).isEqualTo("failure");
        }
    }

    private static ForkedJvm app(Jdk jdk) {
        return ForkedJvm.on(jdk).classPath(Demo.jar()).main(MisbehavingApp.class).timeoutSeconds(120);
    }
}
