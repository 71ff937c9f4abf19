package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.log.AgentLog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TLS: certificates are verified by default; verify_server_cert=false accepts a self-signed one. */
class TlsTest {

    @TempDir
    static Path dir;
    private static SSLContext serverContext;

    @BeforeAll
    static void selfSignedCertificate() throws Exception {
        File keystore = dir.resolve("server.p12").toFile();
        String keytool = System.getProperty("java.home") + File.separator + "bin" + File.separator + "keytool";
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keystore.getPath(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        byte[] out = readAll(p.getInputStream());
        assertEquals(0, p.waitFor(), new String(out, StandardCharsets.UTF_8));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(keystore)) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        serverContext = SSLContext.getInstance("TLS");
        serverContext.init(kmf.getKeyManagers(), null, null);
    }

    private static byte[] readAll(InputStream in) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        int r;
        while ((r = in.read(buf)) > 0) {
            out.write(buf, 0, r);
        }
        return out.toByteArray();
    }

    private ApmReporter reporter(FakeApmServer server, boolean verify) {
        Map<String, Object> options = new HashMap<String, Object>();
        options.put(CoreOptions.SERVER_URLS.key(), Arrays.asList(server.url()));
        options.put(ReporterOptions.VERIFY_SERVER_CERT.key(), verify);
        options.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
        options.put(ReporterOptions.SERVER_TIMEOUT.key(), 2000L);
        PipelineSettings settings = PipelineSettings.from(Config.ofParsed(options));
        settings.backoffUnitMillis = 20;
        settings.errorLinesPerMinute = 0;
        ApmReporter r = new ApmReporter(Config.ofParsed(options), settings);
        r.start();
        return r;
    }

    @Test
    void aSelfSignedCertificateIsRefusedByDefault() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        AgentLog.setOutput(new PrintStream(log, true, "UTF-8"));
        AgentLog.setMaxPerMinute(0); // the test reads the log: every line, whatever earlier tests logged
        try (FakeApmServer server = new FakeApmServer(serverContext)) {
            ApmReporter reporter = reporter(server, true);
            reporter.report(TestEvents.transaction("GET /tls"));
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (reporter.stats().requestFailures() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(reporter.stats().requestFailures() > 0, "the handshake failed");
            assertEquals(0, reporter.stats().delivered());
            assertEquals(0, server.requests.size());
            reporter.close(1000);
            assertTrue(new String(log.toByteArray(), StandardCharsets.UTF_8).contains("cannot connect"));
        } finally {
            AgentLog.setOutput(System.out);
            AgentLog.setMaxPerMinute(AgentLog.DEFAULT_MAX_PER_MINUTE);
        }
    }

    @Test
    void verifyServerCertFalseAcceptsIt() throws Exception {
        try (FakeApmServer server = new FakeApmServer(serverContext)) {
            ApmReporter reporter = reporter(server, false);
            reporter.report(TestEvents.transaction("GET /tls"));
            assertTrue(reporter.flush(20_000), "flush over TLS");
            assertEquals(1, reporter.stats().delivered());
            assertEquals(null, server.requests.get(0).headers.get("content-encoding"), "localhost is loopback: not compressed");
            IntakeSchemaValidator.fromSharedDir().assertValidNdjson(server.requests.get(0).body);
            reporter.close(1000);
        }
    }
}
