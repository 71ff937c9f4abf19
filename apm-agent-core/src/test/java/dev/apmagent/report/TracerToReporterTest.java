package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real tracer wired to the real reporter, as the agent does it: events from several application threads reach the
 * server, and every pooled object comes back to its pool exactly once.
 */
class TracerToReporterTest {

    @Test
    void eventsFromManyThreadsArriveAndEveryPooledObjectIsRecycled() throws Exception {
        try (FakeApmServer server = new FakeApmServer()) {
            Map<String, Object> options = new HashMap<String, Object>();
            options.put(CoreOptions.SERVICE_NAME.key(), "tracer-to-reporter");
            options.put(CoreOptions.SERVER_URLS.key(), Arrays.asList(server.url()));
            options.put(CoreOptions.OBJECT_POOL.key(), "queue");
            options.put(CoreOptions.MAX_QUEUE_SIZE.key(), 4096);
            options.put(ReporterOptions.METRICS_INTERVAL.key(), 0L);
            options.put(ReporterOptions.API_REQUEST_TIME.key(), 200L);
            Config config = Config.ofParsed(options);
            ApmReporter reporter = new ApmReporter(config);
            Tracer tracer = new Tracer(config, reporter);
            reporter.start();
            final int threads = 4;
            final int perThread = 300;
            List<Thread> workers = new ArrayList<Thread>();
            for (int w = 0; w < threads; w++) {
                Thread t = new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        Transaction tx = tracer.startRootTransaction();
                        tx.setName("GET /work");
                        tx.setType("request");
                        Span span = tracer.createSpan(tx);
                        span.setName("SELECT 1");
                        span.setType("db", "h2", "query");
                        span.end();
                        if (i % 10 == 0) {
                            tracer.captureException(new IllegalStateException("boom " + i), tx);
                        }
                        tx.end();
                        if ((i & 31) == 0) {
                            Thread.yield();
                        }
                    }
                });
                t.start();
                workers.add(t);
            }
            for (Thread t : workers) {
                t.join();
            }
            assertTrue(reporter.flush(20_000), "flush");
            reporter.close(5000);
            ReporterStats s = reporter.stats();
            long expected = threads * perThread * 2L + threads * (perThread / 10);
            assertEquals(expected, s.produced());
            assertEquals(s.produced(), s.delivered() + s.dropped() + s.evicted() + s.buffered(), s.toString());
            assertEquals(s.delivered(), server.eventLines().size());
            assertEquals(0, s.buffered());
            IntakeSchemaValidator validator = IntakeSchemaValidator.fromSharedDir();
            validator.assertValidNdjson(server.requests.get(0).body);
            assertEquals(tracer.transactionPool().createdCount() - tracer.transactionPool().droppedCount(),
                    tracer.transactionPool().sharedCount(), "every transaction came back to its pool");
            assertEquals(tracer.spanPool().createdCount() - tracer.spanPool().droppedCount(), tracer.spanPool().sharedCount(),
                    "every span came back to its pool");
            assertEquals(tracer.errorPool().createdCount() - tracer.errorPool().droppedCount(), tracer.errorPool().sharedCount(),
                    "every error came back to its pool");
            assertEquals(0, tracer.reporterFailures());
        }
    }
}
