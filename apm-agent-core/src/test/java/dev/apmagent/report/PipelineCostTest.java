package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Prints the CPU time the reporter and sender threads spend per event (thread CPU time, meaningful on a shared
 * machine), with and without compression; asserts only that everything was delivered.
 */
class PipelineCostTest {

    @ParameterizedTest(name = "compress_requests={0}")
    @ValueSource(strings = {"false", "true"})
    void cpuPerEventOnTheAgentThreads(String compress) throws Exception {
        try (FakeApmServer server = new FakeApmServer()) {
            Map<String, Object> options = new HashMap<String, Object>();
            options.put(CoreOptions.SERVER_URLS.key(), Arrays.asList(server.url()));
            options.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
            options.put(ReporterOptions.COMPRESS_REQUESTS.key(), compress);
            ApmReporter reporter = new ApmReporter(Config.ofParsed(options));
            reporter.start();
            try {
                Transaction t = TestEvents.transaction("GET /orders/{id}");
                Span s = TestEvents.span("SELECT * FROM orders WHERE id = ?");
                ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                long reporterId = 0;
                long senderId = 0;
                for (Thread th : Thread.getAllStackTraces().keySet()) {
                    if (th.getName().equals("apm-reporter")) {
                        reporterId = th.getId();
                    } else if (th.getName().equals("apm-sender")) {
                        senderId = th.getId();
                    }
                }
                int warmUp = 20_000;
                int measured = 40_000;
                long reporterBefore = 0;
                long senderBefore = 0;
                long sent = 0;
                for (int i = 0; i < warmUp + measured; i += 2) {
                    if (i == warmUp) {
                        reporter.flush(30_000);
                        reporterBefore = mx.getThreadCpuTime(reporterId);
                        senderBefore = mx.getThreadCpuTime(senderId);
                    }
                    ReportingPipeline p = reporter.pipeline();
                    while (p.handoff.size() > 400 || p.ring.usedBytes() > p.ring.capacity() / 2) {
                        Thread.yield(); // stay below both capacities: measure work, not drops or evictions
                    }
                    t.incrementReferences();
                    reporter.report(t);
                    s.incrementReferences();
                    reporter.report(s);
                    sent += 2;
                }
                reporter.flush(30_000);
                long reporterCpu = mx.getThreadCpuTime(reporterId) - reporterBefore;
                long senderCpu = mx.getThreadCpuTime(senderId) - senderBefore;
                System.out.printf("pipeline (compress=%s): reporter %.0f ns CPU/event, sender %.0f ns CPU/event, %d requests, %d bytes on"
                        + " the wire%n", compress, (double) reporterCpu / measured, (double) senderCpu / measured,
                        reporter.stats().requests(), reporter.stats().requestBytes());
                assertEquals(sent, reporter.stats().delivered(), reporter.stats().toString());
            } finally {
                reporter.close(2000);
            }
        }
    }
}
