package dev.apmagent.log;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentLogTest {

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    private final Logger log = AgentLog.get(AgentLogTest.class);

    @BeforeEach
    void capture() throws IOException {
        AgentLog.reset();
        AgentLog.setOutput(new PrintStream(captured, true, "UTF-8"));
        AgentLog.setClock(now::get);
    }

    @AfterEach
    void restore() {
        AgentLog.reset();
    }

    private List<String> lines() {
        String text = new String(captured.toByteArray(), StandardCharsets.UTF_8);
        return text.isEmpty() ? new ArrayList<>() : new ArrayList<>(Arrays.asList(text.split(System.lineSeparator())));
    }

    /** Configured level x message level -> written? */
    @ParameterizedTest(name = "at {0}, a {1} line is written: {2}")
    @CsvSource({
            "INFO, ERROR, true", "INFO, WARN, true", "INFO, INFO, true", "INFO, DEBUG, false", "INFO, TRACE, false",
            "ERROR, ERROR, true", "ERROR, WARN, false", "DEBUG, DEBUG, true", "DEBUG, TRACE, false", "TRACE, TRACE, true",
            "OFF, ERROR, false", "WARN, INFO, false",
    })
    void filtersByLevel(LogLevel configured, LogLevel message, boolean written) {
        AgentLog.setLevel(configured);
        log.log(message, "hello {}", "world");
        assertEquals(written ? 1 : 0, lines().size());
        assertEquals(written, log.isEnabled(message));
    }

    @Test
    void linesCarryTimeLevelAndLogger() {
        log.warn("value {} and {} and {}", 1, null);
        assertEquals(Arrays.asList("2023-11-14T22:13:20.000Z [apm-agent] WARN  AgentLogTest - value 1 and null and {}"), lines());
    }

    @Test
    void trailingThrowablePrintsItsStackTrace() {
        log.error("failed to {}", "connect", new IllegalStateException("refused"));
        List<String> lines = lines();
        assertEquals("2023-11-14T22:13:20.000Z [apm-agent] ERROR AgentLogTest - failed to connect", lines.get(0));
        assertEquals("java.lang.IllegalStateException: refused", lines.get(1));
        assertTrue(lines.get(2).trim().startsWith("at dev.apmagent.log.AgentLogTest"), lines.get(2));
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource({"debug, DEBUG", "WARNING, WARN", "critical, ERROR", "all, TRACE", "' Off ', OFF", "loud,"})
    void levelNames(String name, LogLevel expected) {
        assertEquals(expected, LogLevel.fromName(name));
    }

    @Test
    void repeatedTemplatesAreSuppressedAndCountedOnce() {
        AgentLog.setMaxPerMinute(3);
        for (int i = 0; i < 10; i++) {
            log.warn("queue full, dropped {}", i);
            log.info("other {}", i);
        }
        List<String> lines = lines();
        assertEquals(6, lines.size(), lines.toString());
        assertTrue(lines.get(4).endsWith("queue full, dropped 2"), lines.get(4));

        now.addAndGet(59_999);
        log.warn("queue full, dropped {}", 10);
        assertEquals(6, lines().size(), "still the same minute");

        now.addAndGet(1);
        log.warn("queue full, dropped {}", 11);
        lines = lines();
        assertEquals(9, lines.size(), lines.toString());
        assertTrue(lines.get(6).endsWith("WARN  AgentLogTest - Suppressed 8 more message(s) like \"queue full, dropped {}\" logged more than 3 times in a minute"), lines.get(6));
        assertTrue(lines.get(7).endsWith("INFO  AgentLogTest - Suppressed 7 more message(s) like \"other {}\" logged more than 3 times in a minute"), lines.get(7));
        assertTrue(lines.get(8).endsWith("queue full, dropped 11"), lines.get(8));

        for (int i = 0; i < 5; i++) {
            log.warn("queue full, dropped {}", i);
        }
        AgentLog.flushSuppressed();
        lines = lines();
        assertTrue(lines.get(lines.size() - 1).contains("Suppressed 3 more message(s)"), lines.toString());
        AgentLog.flushSuppressed();
        assertEquals(lines, lines(), "a count is reported once");
    }

    @Test
    void aLimitedLoggerWritesATemplateAtMostItsNumberOfTimesPerMinute() {
        Logger serverErrors = log.limitedTo(1);
        for (int i = 0; i < 5; i++) {
            serverErrors.warn("APM Server at {} answered HTTP 503", "http://apm:8200");
            log.warn("a plain logger keeps the default limit {}", i);
        }
        List<String> lines = lines();
        assertEquals(1 + 5, lines.size(), lines.toString());

        now.addAndGet(60_000);
        serverErrors.warn("APM Server at {} answered HTTP 503", "http://apm:8200");
        lines = lines();
        assertTrue(lines.get(6).endsWith("Suppressed 4 more message(s) like \"APM Server at {} answered HTTP 503\" logged more than 1 times in a minute"),
                lines.get(6));
        assertTrue(lines.get(7).endsWith("APM Server at http://apm:8200 answered HTTP 503"), lines.get(7));

        AgentLog.setMaxPerMinute(0);
        for (int i = 0; i < 3; i++) {
            serverErrors.warn("unlimited when the log's limit is off");
        }
        assertEquals(8 + 3, lines().size(), "tests turn the limit off for every logger at once");
    }

    /** A line whose frequency the configuration bounds (the reporter's counters every second) is never suppressed. */
    @Test
    void aLoggerWithoutRateLimitWritesEveryLine() {
        Logger stats = log.withoutRateLimit();
        for (int i = 0; i < 60; i++) {
            stats.debug("reporter: {}", i);
            stats.info("reporter: {}", i);
        }
        assertEquals(60, lines().size(), "debug is below the level, every info line is written");
        for (int i = 0; i < 30; i++) {
            log.info("reporter: {}", i);
        }
        assertEquals(60 + 20, lines().size(), "the logger itself keeps the limit");
    }

    @Test
    void rateLimitCanBeDisabled() {
        AgentLog.setMaxPerMinute(0);
        for (int i = 0; i < 100; i++) {
            log.info("same");
        }
        assertEquals(100, lines().size());
    }

    @Test
    void secretsAreMasked() {
        AgentLog.addSecret("tok3n-value");
        AgentLog.addSecret("tok3n");
        AgentLog.addSecret("  ");
        AgentLog.addSecret(null);
        log.info("Authorization: Bearer {}; short {}", "tok3n-value", "tok3n");
        log.info("cause", new RuntimeException("bad tok3n-value"));
        String text = String.join("\n", lines());
        assertFalse(text.contains("tok3n"), text);
        assertTrue(text.contains("Bearer [REDACTED]; short [REDACTED]") && text.contains("bad [REDACTED]"), text);
    }

    @Test
    void writesToFileCreatingParentsAndAppending(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("a/b/agent.log");
        Files.createDirectories(dir.resolve("home"));
        AgentLog.configure(LogLevel.DEBUG, "_AGENT_HOME_/../a/b/agent.log", dir.resolve("home").toFile());
        log.debug("first");
        AgentLog.configure(LogLevel.INFO, file.toString(), null);
        log.debug("filtered");
        log.info("second");
        AgentLog.configure(LogLevel.INFO, "System.err", null);
        List<String> fileLines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(2, fileLines.size(), fileLines.toString());
        assertTrue(fileLines.get(0).endsWith("DEBUG AgentLogTest - first") && fileLines.get(1).endsWith("INFO  AgentLogTest - second"));
    }

    @Test
    void unopenableFileWarnsOnceOnStderrAndFallsBackToStdout(@TempDir Path dir) throws IOException {
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, "UTF-8"));
            System.setErr(new PrintStream(err, true, "UTF-8"));
            Files.createDirectories(dir.resolve("is-a-directory"));
            AgentLog.configure(LogLevel.INFO, dir.resolve("is-a-directory").toString(), null);
            log.info("still logged");
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        String errText = err.toString("UTF-8");
        assertEquals(1, errText.split(System.lineSeparator()).length, errText);
        assertTrue(errText.contains("WARN  AgentLog - Cannot open log file") && errText.contains("logging to System.out"), errText);
        assertTrue(out.toString("UTF-8").contains("INFO  AgentLogTest - still logged"));
    }

    @Test
    void concurrentWritersProduceWholeLines() throws InterruptedException {
        AgentLog.setMaxPerMinute(0);
        int threads = 4;
        int perThread = 500;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    log.info("thread {} line {}", id, i);
                }
            });
            w.start();
            workers.add(w);
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        List<String> lines = lines();
        assertEquals(threads * perThread, lines.size());
        for (String line : lines) {
            assertTrue(line.matches("\\S+ \\[apm-agent] INFO  AgentLogTest - thread \\d line \\d+"), line);
        }
    }

    /** Every character that is not printable, in an argument or in the template, is written as \\uXXXX. */
    @ParameterizedTest(name = "U+{0}")
    @CsvSource({
            "000A", "000D", "0009", "0000", "001B", "007F", "0080", "0085", "009B", "009F", "2028", "2029",
            "200E", "200F", "202A", "202E", "2066", "2069", "061C", "200B", "FEFF", "D800", "DC00",
    })
    void nonPrintableCharactersAreEscaped(String hex) {
        String c = String.valueOf((char) Integer.parseInt(hex, 16));
        log.warn("reply: {}", "a" + c + "b");
        log.warn("key a" + c + "b is unknown");
        String expected = "a\\u" + hex.toLowerCase(java.util.Locale.ROOT) + "b";
        assertEquals(2, lines().size(), lines().toString());
        assertTrue(lines().get(0).endsWith("reply: " + expected), lines().get(0));
        assertTrue(lines().get(1).endsWith("key " + expected + " is unknown"), lines().get(1));
    }

    @Test
    void printableTextOfEveryScriptIsKept() {
        String text = "Grüße, 東京, Ελλάδα, עברית, 😀, \\path\\ {x} ~";
        log.warn("{}", text);
        assertTrue(lines().get(0).endsWith(" - " + text), lines().get(0));
        assertEquals(text, AgentLog.escape(text));
        assertEquals("tag \\udb40\\udc01", AgentLog.escape("tag \udb40\udc01"), "a format character outside the BMP");
    }

    @Test
    void stackTracesKeepTheirLineBreaksAndEscapeTheRest() {
        log.warn("failed", new IllegalStateException("bad\u001b[31mred"));
        String text = new String(captured.toByteArray(), StandardCharsets.UTF_8);
        assertTrue(text.contains("IllegalStateException: bad\\u001b[31mred" + System.lineSeparator() + "\tat "), text);
        assertFalse(text.contains("\u001b"), text);
    }

    @Test
    void aSecretWithControlCharactersIsMaskedToo() {
        AgentLog.addSecret("s3cr\u0007t");
        log.warn("token {}", "s3cr\u0007t");
        assertTrue(lines().get(0).endsWith("token [REDACTED]"), lines().get(0));
    }

    @Test
    void aFailingToStringDoesNotThrow() {
        Object bad = new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("nope");
            }
        };
        log.info("value {}", bad);
        assertTrue(lines().get(0).contains("failed: java.lang.IllegalStateException: nope"), lines().get(0));
        assertNull(LogLevel.fromName("nope"));
    }

    @Test
    void timestampsAreUtcIsoInstantsWithMillisecondsOverTenThousandYears() {
        DateTimeFormatter iso = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
        long first = Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
        long last = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
        List<Long> instants = new ArrayList<>(Arrays.asList(first, last, -1L, 0L, 1L, 86_399_999L, 86_400_000L,
                Instant.parse("1900-02-28T23:59:59.999Z").toEpochMilli(), Instant.parse("1900-03-01T00:00:00Z").toEpochMilli(),
                Instant.parse("2000-02-29T12:00:00Z").toEpochMilli(), Instant.parse("2000-03-01T00:00:00Z").toEpochMilli(),
                Instant.parse("2024-12-31T23:59:59.999Z").toEpochMilli(), Instant.parse("2100-03-01T00:00:00Z").toEpochMilli()));
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            instants.add(first + (long) (random.nextDouble() * (last - first)));
        }
        for (long instant : instants) {
            assertEquals(iso.format(Instant.ofEpochMilli(instant)), AgentLog.appendUtc(new StringBuilder(), instant).toString(),
                    "epoch millis " + instant);
        }
    }
}
