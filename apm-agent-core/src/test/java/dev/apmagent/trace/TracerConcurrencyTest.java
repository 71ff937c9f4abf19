package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jctools.queues.MpscArrayQueue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.apmagent.config.Config;
import dev.apmagent.pool.BookkeepingObjectPoolFactory;

/**
 * Several application threads trace requests; some spans are ended by another thread; a releasing thread recycles
 * everything (the reporter pattern). Over bookkeeping pools: no object may be handed out while in use, released twice
 * or lost.
 */
class TracerConcurrencyTest extends AbstractTracerTest {

    private static final int APP_THREADS = 4;
    private static final int ITERATIONS = 5_000;

    @ParameterizedTest
    @ValueSource(strings = {"thread_local", "queue"})
    void requestsOnManyThreadsWithAsyncEndsAndARecyclingThread(String strategy) throws Exception {
        pools = BookkeepingObjectPoolFactory.of(strategy);
        MpscArrayQueue<Object> toRelease = new MpscArrayQueue<>(4096);
        MpscArrayQueue<Span> toEnd = new MpscArrayQueue<>(4096);
        Reporter handOff = new Reporter() {
            private boolean offer(Object event) {
                while (!toRelease.offer(event)) {
                    Thread.yield();
                }
                return true;
            }

            @Override
            public boolean report(Transaction transaction) {
                return offer(transaction);
            }

            @Override
            public boolean report(Span span) {
                return offer(span);
            }

            @Override
            public boolean report(ErrorEvent error) {
                return offer(error);
            }
        };
        Tracer concurrent = new Tracer(Config.ofParsed(Collections.<String, Object>singletonMap("object_pool", strategy)),
                handOff, pools);
        long underflowsBefore = AbstractSpan.referenceUnderflows();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong appDone = new AtomicLong();
        AtomicLong released = new AtomicLong();

        List<Thread> apps = new ArrayList<>();
        for (int a = 0; a < APP_THREADS; a++) {
            apps.add(new Thread(() -> {
                try {
                    for (int i = 0; i < ITERATIONS; i++) {
                        Transaction t = concurrent.startRootTransaction();
                        t.setName("GET /");
                        concurrent.activate(t);
                        for (int s = 0; s < 3; s++) {
                            Span span = concurrent.createSpan();
                            concurrent.activate(span);
                            if (i % 10 == 0 && s == 0) {
                                concurrent.captureException(new IllegalStateException(), null);
                            }
                            concurrent.deactivate(span);
                            if (s == 2) {
                                while (!toEnd.offer(span)) { // ended by another thread, after the transaction maybe
                                    Thread.yield();
                                }
                            } else {
                                span.end();
                            }
                        }
                        concurrent.deactivate(t);
                        t.end();
                        if (concurrent.activeDepth() != 0) {
                            throw new AssertionError("active stack not empty");
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    appDone.incrementAndGet();
                }
            }, "app-" + a));
        }
        Thread ender = new Thread(() -> {
            while (appDone.get() < APP_THREADS || !toEnd.isEmpty()) {
                Span span = toEnd.poll();
                if (span == null) {
                    Thread.yield();
                } else {
                    span.end();
                }
            }
        }, "ender");
        Thread releaser = new Thread(() -> {
            while (ender.isAlive() || appDone.get() < APP_THREADS || !toRelease.isEmpty()) {
                Object event = toRelease.poll();
                if (event == null) {
                    Thread.yield();
                    continue;
                }
                if (event instanceof ErrorEvent) {
                    ((ErrorEvent) event).decrementReferences();
                } else {
                    ((AbstractSpan) event).decrementReferences();
                }
                released.incrementAndGet();
            }
        }, "releaser");
        for (Thread t : apps) {
            t.start();
        }
        ender.start();
        releaser.start();
        for (Thread t : apps) {
            t.join();
        }
        ender.join();
        releaser.join();

        assertNull(failure.get());
        long errors = (long) APP_THREADS * (ITERATIONS / 10);
        assertEquals((long) APP_THREADS * ITERATIONS * 4 + errors, released.get());
        assertEquals(0, concurrent.poolConflicts());
        assertEquals(0, concurrent.reporterFailures());
        assertEquals(underflowsBefore, AbstractSpan.referenceUnderflows());
        // @AfterEach: every transaction, span and error went back to its pool exactly once
    }
}
