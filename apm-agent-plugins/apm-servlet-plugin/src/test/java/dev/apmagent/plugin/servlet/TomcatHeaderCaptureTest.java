package dev.apmagent.plugin.servlet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.apmagent.config.Parsers;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.report.EventJson;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.KeyValues;
import dev.apmagent.trace.ListReporter;
import dev.apmagent.trace.Transaction;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Headers and cookies captured from Tomcat's own buffers ({@code TomcatHeaders}), checked on what the reporter writes:
 * raw requests over a socket, so that the bytes are exactly those a client may send.
 */
class TomcatHeaderCaptureTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path baseDir;

    private PluginAgent agent;
    private Tomcat tomcat;
    private int port;

    @BeforeEach
    void start() throws Exception {
        agent = AbstractServletContainerTest.installAgent();
        useConfig(new HashMap<String, Object>());
        tomcat = new Tomcat();
        tomcat.setPort(0);
        tomcat.setBaseDir(baseDir.toString());
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "headers", new HeadersServlet());
        context.addServletMappingDecoded("/h", "headers");
        tomcat.getConnector();
        tomcat.start();
        port = tomcat.getConnector().getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        tomcat.stop();
        tomcat.destroy();
        agent.stopTracer();
        assertThat(PluginHealth.of("servlet").failures()).as("failures inside the plugin").isZero();
    }

    private void useConfig(Map<String, Object> options) {
        agent.stopTracer();
        agent.startTracer(options);
    }

    /** Bytes from 0x80 are ISO-8859-1 characters (2 bytes of UTF-8 each) and a tab is escaped: valid JSON, valid UTF-8. */
    @Test
    void latin1BytesAndControlCharactersBecomeValidJson() throws Exception {
        byte[] value = {'c', 'a', 'f', (byte) 0xE9, ' ', (byte) 0xFF, (byte) 0x80, '\t', '"', '\\', 'e', 'n', 'd'};
        JsonNode tx = request(head("X-Latin", value), "Cookie: theme=\"d\u00e4rk\"\r\n");
        assertThat(tx.at("/context/request/headers/x-latin").asText()).isEqualTo("caf\u00e9 \u00ff\u0080\t\"\\end");
        assertThat(tx.at("/context/request/cookies/theme").asText()).isEqualTo("\"d\u00e4rk\"");
        assertThat(tx.at("/context/response/headers/X-Answer").asText()).isEqualTo("42");
    }

    @Test
    void headerNamesAreLowerCasedAndValuesAreCopiesNotStrings() throws Exception {
        request("X-Name: ann\r\n");
        Transaction t = lastTransaction();
        KeyValues headers = t.context().request().headers();
        int i = indexOf(headers, "x-name");
        assertThat(i).as("lower-cased by Tomcat, as the servlet API gives it").isNotNegative();
        assertThat(headers.value(i)).as("copied from Tomcat's buffer").isNotInstanceOf(String.class);
        assertThat(headers.value(i).toString()).isEqualTo("ann");
        assertThat(indexOf(headers, "cookie")).as("the Cookie header is captured as cookies").isNegative();
    }

    @Test
    void sensitiveHeadersAndCookiesAreRedactedByTheirOwnName() throws Exception {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put("sanitize_field_names", Parsers.WILDCARD_LIST.parse("authorization, x-custom-*, sid"));
        useConfig(options);
        JsonNode tx = request("Authorization: Bearer s3cr3t\r\nX-Custom-Secret: 1\r\nX-Other: 2\r\n",
                // secrets that no hex id can contain by chance ("abc" and "def" could be in the trace id)
                "Cookie: sid=sidsecret1; theme=dark\r\n", "Cookie:  other = x ;sid=sidsecret2\r\n");
        JsonNode headers = tx.at("/context/request/headers");
        assertThat(headers.get("authorization").asText()).isEqualTo("[REDACTED]");
        assertThat(headers.get("x-custom-secret").asText()).isEqualTo("[REDACTED]");
        assertThat(headers.get("x-other").asText()).isEqualTo("2");
        JsonNode cookies = tx.at("/context/request/cookies");
        assertThat(cookies.get("sid").asText()).isEqualTo("[REDACTED]");
        assertThat(cookies.get("theme").asText()).isEqualTo("dark");
        assertThat(cookies.get("other").asText()).isEqualTo("x");
        assertThat(tx.toString()).doesNotContain("s3cr3t", "sidsecret1", "sidsecret2");
    }

    @Test
    void repeatedHeadersKeepEveryValue() throws Exception {
        JsonNode tx = request("X-Tag: a\r\nX-Other: o\r\nX-Tag: b\r\n");
        assertThat(tx.at("/context/request/headers/x-tag").toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(tx.at("/context/response/headers/X-Tag").toString()).isEqualTo("[\"a\",\"b\"]");
    }

    /** At most 32 headers and cookies each, values cut to 1,024 bytes; a Cookie header after the limit still counts. */
    @Test
    void manyHeadersStopAtTheLimit() throws Exception {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            many.append("X-H").append(i).append(": v").append(i).append("\r\n");
        }
        StringBuilder longValue = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            longValue.append('x');
        }
        StringBuilder cookies = new StringBuilder("Cookie: ");
        for (int i = 0; i < 40; i++) {
            cookies.append("c").append(i).append("=").append(i).append("; ");
        }
        request("X-Long: " + longValue + "\r\n", many.toString(), cookies + "\r\n");
        Transaction t = lastTransaction();
        KeyValues headers = t.context().request().headers();
        assertThat(headers.size()).isEqualTo(KeyValues.DEFAULT_CAPACITY);
        assertThat(headers.value(indexOf(headers, "x-long")).length()).isEqualTo(KeyValues.MAX_VALUE_LENGTH);
        assertThat(t.context().request().cookies().size()).isEqualTo(KeyValues.DEFAULT_CAPACITY);
        assertThat(t.context().request().cookies().key(0)).isEqualTo("c0");
    }

    // ------------------------------------------------------------------ helpers

    private static byte[] head(String name, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((name + ": ").getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(value);
        out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    private JsonNode request(String... headers) throws Exception {
        return request(new byte[0], headers);
    }

    /** Sends a GET with these header lines, waits for its transaction and returns it as the reporter writes it. */
    private JsonNode request(byte[] rawHeader, String... headers) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("GET /h HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(rawHeader);
        for (String h : headers) {
            out.writeBytes(h.getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("Connection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(out.toByteArray());
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(reply).startsWith("HTTP/1.1 200");
        }
        String json = EventJson.transaction(lastTransaction());
        return MAPPER.readTree(json).get("transaction");
    }

    private Transaction lastTransaction() throws InterruptedException {
        ListReporter reporter = agent.reporter();
        for (int i = 0; i < 500 && reporter.transactions().isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertThat(reporter.transactions()).as("a transaction was reported").isNotEmpty();
        return reporter.transactions().get(reporter.transactions().size() - 1);
    }

    private static int indexOf(KeyValues values, String key) {
        for (int i = 0; i < values.size(); i++) {
            if (values.key(i).equals(key)) {
                return i;
            }
        }
        return -1;
    }

    static final class HeadersServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setHeader("X-Answer", "42");
            resp.addHeader("X-Tag", "a");
            resp.addHeader("X-Tag", "b");
            resp.getOutputStream().write('k');
        }
    }
}
