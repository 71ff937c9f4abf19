package dev.apmagent.it.e2e;

import dev.apmagent.it.Jdk;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole agent on the demo application under a bounded load (4 threads, {@value #REQUESTS_PER_THREAD} requests
 * each, over endpoints with and without JDBC and Dubbo), reporting to a stand-in APM Server on 127.0.0.1 that
 * misbehaves in one way per case. In every case:
 * <ul>
 * <li>every application request succeeds with the response the demo gives without the agent;</li>
 * <li>the agent accounts for every event: {@code produced = delivered + dropped + evicted + buffered} in the counters
 * it logs when it closes, and what it counts as delivered is what the server accepted;</li>
 * <li>it recovers without a restart: once the server behaves, events of requests made after that arrive;</li>
 * <li>memory stays bounded: the demo runs with {@code -Xmx256m}, {@code -XX:+ExitOnOutOfMemoryError} and the smallest
 * {@code max_buffer_size} (64kb), serves every request and exits with 0.</li>
 * </ul>
 * The server that answers only after 30 s is met with {@code server_timeout=2s} (the agent aborts the request after 2 s
 * without a reply), so the case takes seconds rather than minutes; the behaviour is the same with the default 5s.
 * Nothing here asserts time or throughput: the observed request rate is printed only. JDK 17 only (the build's JDK),
 * to keep the suite short; the agent's JDK-specific code is covered by the other ITs on JDK 25.
 */
class ServerFaultsIT {

    static final int THREADS = 4;
    static final int REQUESTS_PER_THREAD = 150;
    static final String[] PATHS = {"/hello", "/users/1", "/accounts/1", "/users/2", "/accounts/2", "/users/3", "/accounts/3"};

    enum Fault { DOWN_WHOLE_RUN, DOWN_MIDWAY, STATUS_503, GARBAGE_400, REPLY_AFTER_30S, READ_1KB_PER_S }

    private static final Map<String, Demo.Response> withoutAgent = new LinkedHashMap<>();

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

    @ParameterizedTest
    @EnumSource(Fault.class)
    void agentSurvivesAccountsAndRecovers(Fault fault, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("agent.log");
        try (StandInApmServer server = new StandInApmServer()) {
            switch (fault) {
                case DOWN_WHOLE_RUN: server.down(); break;
                case STATUS_503: server.behave(StandInApmServer.Behaviour.STATUS_503); break;
                case GARBAGE_400: server.behave(StandInApmServer.Behaviour.GARBAGE_400); break;
                case REPLY_AFTER_30S: server.behave(StandInApmServer.Behaviour.REPLY_AFTER_30S); break;
                case READ_1KB_PER_S: server.behave(StandInApmServer.Behaviour.READ_1KB_PER_S); break;
                default: break;
            }
            try (Demo demo = Demo.start(Demo.jvm(Jdk.all().get(0))
                    .withAgent("server_url=" + server.url() + ",log_file=" + log + ",log_level=debug"
                            + ",max_buffer_size=64kb,api_request_time=1s,server_timeout=2s,metrics_interval=1s,flush_timeout=3s")
                    .jvmArg("-Xmx256m").jvmArg("-XX:+ExitOnOutOfMemoryError"))) {

                List<String> wrong = new ArrayList<>();
                long started = System.nanoTime();
                load(demo, fault == Fault.DOWN_MIDWAY ? server : null, wrong);
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf("ServerFaultsIT %s: %d requests in %.1f s = %.0f requests/s%n", fault,
                        THREADS * REQUESTS_PER_THREAD, seconds, THREADS * REQUESTS_PER_THREAD / seconds);
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
            System.out.println("ServerFaultsIT " + fault + ": " + counters);
            assertThat(counters.produced()).as("every event is accounted for: " + counters)
                    .isEqualTo(counters.delivered() + counters.dropped() + counters.evicted() + counters.buffered());
            assertThat(counters.produced()).as("the load produced events").isGreaterThan(THREADS * REQUESTS_PER_THREAD);
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
    }

    /** The counters show the fault the case was about. */
    private static void assertFaultVisible(Fault fault, ReporterCounters c) {
        switch (fault) {
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

    /** 4 threads, each cycling over the paths; the DOWN_MIDWAY server goes down after half the requests. */
    private static void load(Demo demo, StandInApmServer downMidway, List<String> wrong) throws Exception {
        AtomicInteger done = new AtomicInteger();
        int half = THREADS * REQUESTS_PER_THREAD / 2;
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
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
                wrong.addAll(f.get(5, TimeUnit.MINUTES));
            }
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
}
