package dev.apmagent.it.e2e;

import dev.apmagent.it.Jdk;
import dev.apmagent.it.TestPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole agent on the demo application under a bounded load (4 threads, {@value #REQUESTS_PER_THREAD} requests
 * each, over endpoints with and without JDBC and Dubbo), reporting to a stand-in APM Server on 127.0.0.1 that behaves
 * ({@link Fault#HEALTHY}, the baseline) or misbehaves in one way per case. In every case:
 * <ul>
 * <li>every application request succeeds with the response the demo gives without the agent;</li>
 * <li>the agent accounts for every event: {@code produced = delivered + dropped + evicted + buffered} in the counters
 * it logs when it closes, and what it counts as delivered is what the server accepted;</li>
 * <li>it recovers without a restart: once the server behaves, events of requests made after that arrive;</li>
 * <li>memory stays bounded by the configured buffers: the demo runs with {@code -Xmx256m},
 * {@code -XX:+ExitOnOutOfMemoryError} and the smallest {@code max_buffer_size} ({@value #MAX_BUFFER_SIZE_KB}kb), serves
 * every request and exits with 0, and its heap in use after a full GC at the end of the load (with the fault still on)
 * is at most the healthy run's plus {@code max_buffer_size} plus {@link #HEAP_SLACK_BYTES} (see
 * {@link #compareWithHealthy});</li>
 * <li>the application keeps its pace: the measured load's requests per second are compared with the healthy run's on
 * the same JDK. The ratio is printed and written to {@code target/server-faults.md} for a person to read, and not
 * asserted: it is a timing, and on a shared two-core machine one run of a few seconds can be several times slower than
 * another for reasons that have nothing to do with the agent (with another build running beside this one, the server
 * that is down for the whole run gave 0.13 in one run and 0.93 in the next). Fault cases often come out faster than
 * the healthy run: with nothing to send, the agent's sender and the stand-in server leave more of the two cores to the
 * demo and the load. An application thread that waited for the late or the slow server would take seconds per
 * request, and the load fails when it does not finish within {@value #LOAD_DEADLINE_MINUTES} minutes (a few seconds
 * when healthy).</li>
 * </ul>
 * Each case first runs the same load once unmeasured, so that the JIT has compiled the hottest request paths before
 * the measured load; the JIT is still at work after it, but alike in every case, so the ratio compares like with like.
 * The server that answers only after 30 s is met with {@code server_timeout=2s} (the agent aborts the request after 2 s
 * without a reply), so the case takes seconds rather than minutes; the behaviour is the same with the default 5s.
 * Every case runs on the build's JDK 17; on JDK 25 the healthy baseline and two representative faults
 * ({@link #ON_OTHER_JDKS}) run, to keep the suite short.
 */
class ServerFaultsIT {

    static final int THREADS = 4;
    static final int REQUESTS_PER_THREAD = 300;
    /** How long one load may take (a few seconds when healthy) before the case fails. */
    static final int LOAD_DEADLINE_MINUTES = 5;
    static final String[] PATHS = {"/hello", "/users/1", "/accounts/1", "/users/2", "/accounts/2", "/users/3", "/accounts/3"};
    /** The agent's byte ring, the only agent buffer whose contents a fault changes: the smallest it accepts. */
    static final int MAX_BUFFER_SIZE_KB = 64;
    /**
     * What the heap after GC of a fault case may exceed the healthy run's by, besides {@code max_buffer_size}.
     * Everything else the agent holds has a fixed size that the healthy run holds too: the hand-off
     * ({@code max_queue_size}, 512 slots of references), the bounded event pools behind it, the sender's 16 kB chunk and
     * reply buffers. The byte ring's 64 KB chunks follow what is buffered: a full 64 KB ring holds at most two chunks
     * and a spare (192 KB), a healthy one at least the spare. What is left is the application's own variation from run to run, which has stayed within 0.3 MB of the
     * healthy run in every case so far, on JDK 17 and 25; the slack is several times that. A fault case that kept the
     * events it evicted instead (over 8,000 when the server is down for the whole run, some 540 bytes each serialized,
     * about 4.5 MB; more as objects) would exceed the bound.
     */
    static final long HEAP_SLACK_BYTES = 2L << 20;

    enum Fault { HEALTHY, DOWN_WHOLE_RUN, DOWN_MIDWAY, STATUS_503, GARBAGE_400, REPLY_AFTER_30S, READ_1KB_PER_S }

    /** The cases run on the other JDKs: the baseline, an outage with recovery, and a server that stalls the agent's writes. */
    static final Set<Fault> ON_OTHER_JDKS = EnumSet.of(Fault.HEALTHY, Fault.DOWN_MIDWAY, Fault.READ_1KB_PER_S);

    private static final Map<String, Demo.Response> withoutAgent = new LinkedHashMap<>();
    /** What each case measured, in the order they ran, for the table written after the class. */
    private static final List<Measured> measured = new CopyOnWriteArrayList<>();

    /** Every fault on the build's JDK, {@link #ON_OTHER_JDKS} on the others; the healthy baseline first on each. */
    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        List<Jdk> jdks = Jdk.all();
        for (int i = 0; i < jdks.size(); i++) {
            for (Fault fault : Fault.values()) {
                if (i == 0 || ON_OTHER_JDKS.contains(fault)) {
                    cases.add(Arguments.of(jdks.get(i), fault));
                }
            }
        }
        return cases.stream();
    }

    @BeforeAll
    static void responsesWithoutAgent() throws Exception {
        try (Demo demo = Demo.start(Demo.jvm(Jdk.all().get(0)))) {
            for (String path : PATHS) {
                withoutAgent.put(path, demo.get(path));
            }
            assertThat(demo.stop()).isZero();
        }
        for (Map.Entry<String, Demo.Response> e : withoutAgent.entrySet()) {
            assertThat(e.getValue().status).as(e.getKey()).isEqualTo(200);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void agentSurvivesAccountsAndRecovers(Jdk jdk, Fault fault, @TempDir Path dir) throws Exception {
        HeapAfterGc.assumeJcmd(jdk);
        Path log = dir.resolve("agent.log");
        Measured run = new Measured(jdk, fault);
        try (StandInApmServer server = new StandInApmServer()) {
            switch (fault) {
                case DOWN_WHOLE_RUN: server.down(); break;
                case STATUS_503: server.behave(StandInApmServer.Behaviour.STATUS_503); break;
                case GARBAGE_400: server.behave(StandInApmServer.Behaviour.GARBAGE_400); break;
                case REPLY_AFTER_30S: server.behave(StandInApmServer.Behaviour.REPLY_AFTER_30S); break;
                case READ_1KB_PER_S: server.behave(StandInApmServer.Behaviour.READ_1KB_PER_S); break;
                default: break;
            }
            try (Demo demo = Demo.start(Demo.jvm(jdk)
                    .withAgent("server_url=" + server.url() + ",log_file=" + log + ",log_level=debug"
                            + ",max_buffer_size=" + MAX_BUFFER_SIZE_KB + "kb,api_request_time=1s,server_timeout=2s"
                            + ",metrics_interval=1s,flush_timeout=3s")
                    .jvmArg("-Xmx256m").jvmArg("-XX:+ExitOnOutOfMemoryError"))) {

                List<String> wrong = new ArrayList<>();
                load(demo, null, wrong); // warm-up, unmeasured
                run.seconds = load(demo, fault == Fault.DOWN_MIDWAY ? server : null, wrong);
                run.heapAfterGc = HeapAfterGc.bytes(jdk, demo.jvm.process.pid(), dir); // the fault still on
                measured.add(run);
                System.out.println("ServerFaultsIT " + run);
                assertThat(wrong).as("requests whose response differs from the demo's without the agent").isEmpty();

                // the server behaves again: events of requests made from now on must arrive, without a restart
                server.behave(StandInApmServer.Behaviour.ACCEPT);
                server.up();
                awaitRecovery(demo, server);

                int exit = demo.stop();
                assertThat(exit).as("the demo exits normally (no OutOfMemoryError): " + demo.jvm).isZero();
                assertThat(demo.jvm.stderr()).doesNotContain("OutOfMemoryError");
            }
            String agentLog = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
            ReporterCounters counters = ReporterCounters.atClose(agentLog);
            run.counters = counters;
            System.out.println("ServerFaultsIT " + jdk + " " + fault + ": " + counters);
            assertThat(counters.produced()).as("every event is accounted for: " + counters)
                    .isEqualTo(counters.delivered() + counters.dropped() + counters.evicted() + counters.buffered());
            assertThat(counters.produced()).as("the load produced events").isGreaterThan(2 * THREADS * REQUESTS_PER_THREAD);
            List<String> accepted = server.acceptedLines();
            if (fault == Fault.READ_1KB_PER_S) {
                // a request the agent gave up on may still have been read to its end and answered by the server
                assertThat((long) accepted.size()).as("delivered <= accepted by the server: " + counters)
                        .isGreaterThanOrEqualTo(counters.delivered());
            } else {
                assertThat((long) accepted.size()).as("delivered = accepted by the server: " + counters)
                        .isEqualTo(counters.delivered());
            }
            assertFaultVisible(fault, counters);
        }
        compareWithHealthy(run);
    }

    /**
     * Heap after GC at most the healthy run's (same JDK) plus {@code max_buffer_size} plus {@link #HEAP_SLACK_BYTES}.
     * Not a timing: both figures are live bytes after full collections, taken at the same point of the same load.
     */
    private static void compareWithHealthy(Measured run) {
        if (run.fault == Fault.HEALTHY) {
            return;
        }
        Measured healthy = healthy(run.jdk);
        assertThat(healthy).as("the healthy baseline on " + run.jdk + " ran before this case and measured").isNotNull();
        assertThat(run.heapAfterGc).as("heap after GC (bytes) with the server %s, bounded by the healthy run's %s"
                        + " + max_buffer_size %d kB + slack %s", run.fault, mb(healthy.heapAfterGc), MAX_BUFFER_SIZE_KB,
                        mb(HEAP_SLACK_BYTES))
                .isLessThanOrEqualTo(heapBound(healthy));
    }

    private static long heapBound(Measured healthy) {
        return healthy.heapAfterGc + MAX_BUFFER_SIZE_KB * 1024L + HEAP_SLACK_BYTES;
    }

    private static Measured healthy(String jdk) {
        for (Measured m : measured) {
            if (m.fault == Fault.HEALTHY && m.jdk.equals(jdk)) {
                return m;
            }
        }
        return null;
    }

    /** Prints the table of every case's figures and writes it to {@code target/server-faults.md}. */
    @AfterAll
    static void writeTable() throws IOException {
        if (measured.isEmpty()) {
            return;
        }
        StringBuilder table = new StringBuilder()
                .append("| JDK | server | requests/s | vs healthy | heap after GC | vs healthy | heap bound |")
                .append(" produced | delivered | dropped | evicted | buffered |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Measured m : measured) {
            Measured healthy = healthy(m.jdk);
            String rateVsHealthy = "?";
            String heapVsHealthy = "?";
            String bound = "";
            if (healthy != null) {
                rateVsHealthy = String.format(Locale.ROOT, "%.2f", m.requestsPerSecond() / healthy.requestsPerSecond());
                heapVsHealthy = String.format(Locale.ROOT, "%+.2f MB", (m.heapAfterGc - healthy.heapAfterGc) / 1048576.0);
                bound = m.fault == Fault.HEALTHY ? "" : mb(heapBound(healthy));
            }
            table.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %s | %s | %s | %s", m.jdk, m.fault,
                    m.requestsPerSecond(), rateVsHealthy, mb(m.heapAfterGc), heapVsHealthy, bound));
            for (String counter : new String[] {"produced", "delivered", "dropped", "evicted", "buffered"}) {
                table.append(" | ").append(m.counters == null ? "?" : Long.toString(m.counters.get(counter)));
            }
            table.append(" |\n");
        }
        System.out.println("ServerFaultsIT: throughput and heap after GC per case (ratios to the healthy run on the same JDK)\n"
                + table);
        String report = "# Server faults: throughput and heap\n\n"
                + "Written by `ServerFaultsIT` on " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " ("
                + Runtime.getRuntime().availableProcessors() + " CPUs, load average " + loadAverage() + ").\n\n"
                + "Each row is one run of the demo with the agent (`-Xmx256m`, `max_buffer_size=" + MAX_BUFFER_SIZE_KB
                + "kb`) against a stand-in APM Server that behaves (HEALTHY) or misbehaves as named. The load is "
                + THREADS + " threads x " + REQUESTS_PER_THREAD + " requests, once to warm up and once measured; "
                + "requests/s is the measured load's, heap after GC is what the application JVM reports (`jcmd"
                + " GC.heap_info` after two `GC.run`) at the end of it, with the fault still on. \"vs healthy\" compares"
                + " with the HEALTHY row of the same JDK. Asserted: heap after GC <= heap bound (healthy + max_buffer_size"
                + " + " + mb(HEAP_SLACK_BYTES) + ") and produced = delivered + dropped + evicted + buffered. The"
                + " requests/s ratios are timings of runs of a few seconds on a possibly shared machine: read them next"
                + " to the load average above; they are not asserted.\n\n" + table;
        Path file = TestPaths.testClasses().getParent().resolve("server-faults.md");
        Files.write(file, report.getBytes(StandardCharsets.UTF_8));
        System.out.println("ServerFaultsIT: written to " + file);
    }

    private static String loadAverage() {
        try {
            String[] fields = new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.US_ASCII).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.2f MB", bytes / 1048576.0);
    }

    /** The counters show the fault the case was about. */
    private static void assertFaultVisible(Fault fault, ReporterCounters c) {
        switch (fault) {
            case HEALTHY:
                // evictions and queue_full drops are left alone: they depend on how fast the agent's threads get a core
                assertThat(c.get("request_failures")).as("nothing failed: " + c).isZero();
                assertThat(c.get("send_failed") + c.get("server_rejected")).as("nothing lost to the server: " + c).isZero();
                assertThat(c.delivered()).as(c.toString()).isPositive();
                break;
            case DOWN_WHOLE_RUN:
                assertThat(c.evicted()).as("64 kB cannot hold a whole run's events: the oldest were evicted: " + c).isPositive();
                assertThat(c.get("request_failures")).as(c.toString()).isPositive();
                break;
            case DOWN_MIDWAY:
            case STATUS_503:
            case REPLY_AFTER_30S:
            case READ_1KB_PER_S:
                assertThat(c.dropped() + c.evicted()).as("lost to the fault: " + c).isPositive();
                break;
            case GARBAGE_400:
                assertThat(c.get("garbage_replies")).as(c.toString()).isPositive();
                assertThat(c.get("server_rejected")).as(c.toString()).isPositive();
                break;
            default:
                throw new AssertionError(fault);
        }
    }

    /**
     * 4 threads, each cycling over the paths; the DOWN_MIDWAY server goes down after half the requests. Returns the
     * seconds from the first request sent to the last response read.
     */
    private static double load(Demo demo, StandInApmServer downMidway, List<String> wrong) throws Exception {
        AtomicInteger done = new AtomicInteger();
        int half = THREADS * REQUESTS_PER_THREAD / 2;
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            long started = System.nanoTime();
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    List<String> mismatches = new ArrayList<>();
                    for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
                        String path = PATHS[(i + offset) % PATHS.length];
                        Demo.Response r = demo.get(path);
                        if (!r.equals(withoutAgent.get(path))) {
                            mismatches.add(path + " -> " + r);
                        }
                        if (done.incrementAndGet() == half && downMidway != null) {
                            downMidway.down();
                        }
                    }
                    return mismatches;
                }));
            }
            for (Future<List<String>> f : results) {
                try {
                    wrong.addAll(f.get(LOAD_DEADLINE_MINUTES, TimeUnit.MINUTES));
                } catch (TimeoutException e) {
                    throw new AssertionError("the load did not finish within " + LOAD_DEADLINE_MINUTES + " minutes (a few"
                            + " seconds with a healthy server): do application threads wait for the server? " + demo.jvm, e);
                }
            }
            return (System.nanoTime() - started) / 1e9;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Sends a marked request every 250 ms until the server has accepted a transaction of one of them (at most 90 s:
     * the agent's back-off after repeated failures is up to 36 s plus jitter).
     */
    private static void awaitRecovery(Demo demo, StandInApmServer server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        for (int i = 0; ; i++) {
            assertThat(demo.get("/hello?phase=recovery").status).isEqualTo(200);
            for (String line : server.acceptedLines()) {
                if (line.startsWith("{\"transaction\"") && line.contains("phase=recovery")) {
                    return;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no event of a request made after the server recovered arrived within 90 s; "
                        + server.acceptedLines().size() + " lines accepted; " + demo.jvm);
            }
            Thread.sleep(250);
        }
    }

    /** What one case measured; the counters are known once the demo has exited. */
    static final class Measured {
        final String jdk;
        final Fault fault;
        double seconds;
        long heapAfterGc;
        ReporterCounters counters;

        Measured(Jdk jdk, Fault fault) {
            this.jdk = jdk.toString();
            this.fault = fault;
        }

        double requestsPerSecond() {
            return THREADS * REQUESTS_PER_THREAD / seconds;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s %s: %d requests in %.2f s = %.0f requests/s; heap after GC %s",
                    jdk, fault, THREADS * REQUESTS_PER_THREAD, seconds, requestsPerSecond(), mb(heapAfterGc));
        }
    }
}
