package dev.apmagent.report;

import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The serializing thread allocates nothing per transaction or span after warm-up (measured with the thread's
 * allocated-bytes counter), and for errors no more than what {@link Throwable#getStackTrace()} itself allocates.
 */
class SerializationAllocationTest {

    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;

    private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final ModelCodec codec = new ModelCodec();
    private final JsonHelper json = new JsonHelper();

    @Test
    void transactionsAndSpansAllocateNothing() {
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "allocation counting not supported by this JVM");
        Transaction t = TestEvents.transaction("GET /orders/{id} \u00e4 \uD83D\uDE00");
        Span s = TestEvents.span("SELECT \"x\" FROM orders \n");
        Transaction unsampled = TestEvents.unsampledTransaction();
        for (int i = 0; i < WARM_UP; i++) {
            serialize(t);
            serialize(s);
            serialize(unsampled);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        long bytes = 0;
        for (int i = 0; i < MEASURED; i++) {
            bytes += serialize(t);
            bytes += serialize(s);
            bytes += serialize(unsampled);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        double perEvent = (double) allocated / (3 * MEASURED);
        System.out.printf("serialization: %.3f B allocated per event (%d events, %d bytes of JSON)%n", perEvent, 3 * MEASURED, bytes);
        // the counter itself allocates a little per call; anything per event would show as >= 16 B
        assertTrue(perEvent < 1.0, "allocated " + perEvent + " B per transaction/span");
    }

    @Test
    void errorsAllocateOnlyTheStackTraceCopies() {
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "allocation counting not supported by this JVM");
        ErrorEvent e = TestEvents.error("boom");
        Throwable ex = e.exception();
        for (int i = 0; i < WARM_UP; i++) {
            serialize(e);
        }
        // the least of three rounds: a one-off allocation in a round (a lazily grown table of the JVM's or of a
        // library's, once) is not a per-error cost; a per-error one shows in every round
        long serializing = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long start = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED; i++) {
                serialize(e);
            }
            serializing = Math.min(serializing, threads.getCurrentThreadAllocatedBytes() - start);
        }
        // what getStackTrace() alone allocates for the throwable and its two causes
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            ex.getStackTrace();
            ex.getCause().getStackTrace();
            ex.getCause().getCause().getStackTrace();
        }
        long stackTraces = threads.getCurrentThreadAllocatedBytes() - before;
        System.out.printf("error serialization: %.1f B per error; getStackTrace() copies: %.1f B%n",
                (double) serializing / MEASURED, (double) stackTraces / MEASURED);
        assertTrue(serializing <= stackTraces + 16L * MEASURED / 1000,
                "errors allocate " + serializing / MEASURED + " B, stack trace copies " + stackTraces / MEASURED + " B");
    }

    /** The application-thread side: report() allocates nothing (counters, one CAS, a reference in a slot). */
    @Test
    void reportAllocatesNothingOnTheApplicationThread() throws Exception {
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "allocation counting not supported by this JVM");
        java.util.Map<String, Object> options = new java.util.HashMap<String, Object>();
        options.put(dev.apmagent.config.CoreOptions.SERVER_URLS.key(), java.util.Arrays.asList(FakeApmServer.downUrl()));
        options.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
        ApmReporter reporter = new ApmReporter(dev.apmagent.config.Config.ofParsed(options));
        reporter.start();
        try {
            Transaction t = TestEvents.transaction("GET /x");
            Span s = TestEvents.span("SELECT 1");
            for (int i = 0; i < WARM_UP; i++) {
                t.incrementReferences(); // the reporter releases one reference per report
                reporter.report(t);
                s.incrementReferences();
                reporter.report(s);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED; i++) {
                t.incrementReferences();
                reporter.report(t);
                s.incrementReferences();
                reporter.report(s);
            }
            double perReport = (double) (threads.getCurrentThreadAllocatedBytes() - before) / (2 * MEASURED);
            System.out.printf("report(): %.3f B allocated per call on the application thread%n", perReport);
            assertTrue(perReport < 1.0, perReport + " B per report()");
        } finally {
            reporter.close(1000);
        }
    }

    /** The reporter thread itself (poll, serialize, append to the byte ring, release) allocates nothing per event. */
    @Test
    void theReporterThreadAllocatesNothingPerEvent() throws Exception {
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "allocation counting not supported by this JVM");
        try (FakeApmServer server = new FakeApmServer()) {
            java.util.Map<String, Object> options = new java.util.HashMap<String, Object>();
            options.put(dev.apmagent.config.CoreOptions.SERVER_URLS.key(), java.util.Arrays.asList(server.url()));
            options.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
            ApmReporter reporter = new ApmReporter(dev.apmagent.config.Config.ofParsed(options));
            reporter.start();
            try {
                Transaction t = TestEvents.transaction("GET /x");
                Span s = TestEvents.span("SELECT 1");
                long reporterThread = -1;
                for (Thread th : Thread.getAllStackTraces().keySet()) {
                    if (th.getName().equals("apm-reporter") && th.isAlive()) {
                        reporterThread = th.getId();
                    }
                }
                assertTrue(reporterThread > 0);
                int rounds = 40;
                int perRound = 200; // below the hand-off capacity, so nothing is dropped
                long before = 0;
                long chunkBytesBefore = 0;
                long events = 0;
                for (int round = 0; round < rounds; round++) {
                    if (round == rounds / 2) {
                        reporter.flush(10_000);
                        before = threads.getThreadAllocatedBytes(reporterThread);
                        chunkBytesBefore = reporter.pipeline().ring.chunkBytesAllocated();
                        events = 0;
                    }
                    for (int i = 0; i < perRound; i += 2) {
                        t.incrementReferences(); // the reporter releases one reference per event
                        reporter.report(t);
                        s.incrementReferences();
                        reporter.report(s);
                        events += 2;
                    }
                    while (reporter.pipeline().handoff.size() > 0) {
                        Thread.sleep(1);
                    }
                }
                reporter.flush(10_000);
                long allocated = threads.getThreadAllocatedBytes(reporterThread) - before;
                // a sender slowed down by a busy machine lets the ring grow by a chunk: the ring's memory follows the
                // buffered bytes (ByteRingTest), it is not allocation per event
                long chunkBytes = reporter.pipeline().ring.chunkBytesAllocated() - chunkBytesBefore;
                allocated -= chunkBytes;
                double perEvent = (double) allocated / events;
                System.out.printf("reporter thread: %.3f B allocated per event (%d events, %d bytes; %d bytes of new ring chunks left out)%n",
                        perEvent, events, allocated, chunkBytes);
                // the reporter thread's loop wakes and parks between rounds; nothing may scale with the event count
                assertTrue(perEvent < 8.0, perEvent + " B per event on the reporter thread");
            } finally {
                reporter.close(2000);
            }
        }
    }

    @Test
    void quickThroughputLoop() {
        Transaction t = TestEvents.transaction("GET /orders/{id}");
        Span s = TestEvents.span("SELECT * FROM orders WHERE id = ?");
        for (int i = 0; i < WARM_UP * 5; i++) {
            serialize(t);
            serialize(s);
        }
        int n = 200_000;
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            bytes += serialize(t);
            bytes += serialize(s);
        }
        long elapsed = System.nanoTime() - start;
        long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
        // thread CPU time is the figure to read on a shared, loaded machine; wall time is printed for comparison
        System.out.printf("serialization: %.0f ns CPU (%.0f ns wall) per event (transaction with full context / db span), %d bytes"
                + " average%n", (double) cpu / (2 * n), (double) elapsed / (2 * n), bytes / (2 * n));
        assertTrue(bytes > 0);
    }

    private int serialize(Object event) {
        json.reset();
        codec.serialize(event, json);
        return json.size();
    }
}
