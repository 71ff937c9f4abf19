package dev.apmagent.benchmark.dubbo;

import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the benchmark's set-up and operation without JMH, in each mode, and checks the answer of the call and what
 * reached the reporter. A recorder in front of the releasing reporter copies each event's ids and names on the thread
 * that ends it, before the event is handed off and recycled.
 *
 * <p>All three modes run in this one JVM, each with its own Dubbo framework model, and the instrumentation is removed
 * again after {@code idle} and {@code agent}. So {@code none} here checks the call and that nothing was traced, but not
 * that the JVM is free of instrumentation: other tests of this JVM install theirs, and the ByteBuddy agent stays
 * loaded. Only JMH's own fork per mode gives a {@code none} without any.
 */
class DubboCallBenchmarkTest {

    private static final int CALLS = 50;

    @Test
    void withoutTheAgentTheCallAnswersAndNothingIsTraced() throws Exception {
        DubboCallBenchmark benchmark = new DubboCallBenchmark();
        benchmark.mode = "none";
        callAndStop(benchmark, null, 0);
        assertNull(benchmark.reporter, "no tracer, no reporter");
    }

    @Test
    void idleConsumerTracesNothingAndTheProviderStartsItsOwnTraces() throws Exception {
        Recorder recorder = new Recorder();
        DubboCallBenchmark benchmark = recording("idle", recorder);
        callAndStop(benchmark, recorder, CALLS);
        List<Recorded> events = recorder.events();
        assertEquals(CALLS, events.size(), "one provider transaction per call and nothing else: " + events);
        for (Recorded e : events) {
            assertTrue(e.transaction, "no consumer span without an active transaction: " + e);
            assertEquals("EchoService#echo", e.name);
            assertEquals(0, e.parentId, "the provider starts a trace of its own: " + e);
        }
        assertEquals(0, benchmark.reporter.dropped());
        assertEquals(0, PluginHealth.of("dubbo").failures(), "failures inside the plugin");
    }

    @Test
    void tracedCallIsAConsumerSpanAndAProviderTransactionOfOneTrace() throws Exception {
        Recorder recorder = new Recorder();
        DubboCallBenchmark benchmark = recording("agent", recorder);
        callAndStop(benchmark, recorder, 3 * CALLS);
        List<Recorded> events = recorder.events();
        assertEquals(3 * CALLS, events.size(), "caller transaction, consumer span and provider transaction per call");
        List<Recorded> callers = new ArrayList<>();
        List<Recorded> spans = new ArrayList<>();
        List<Recorded> providers = new ArrayList<>();
        for (Recorded e : events) {
            if (!e.transaction) {
                spans.add(e);
            } else if (e.parentId == 0) {
                callers.add(e);
            } else {
                providers.add(e);
            }
        }
        assertEquals(CALLS, callers.size());
        assertEquals(CALLS, spans.size());
        assertEquals(CALLS, providers.size());
        for (Recorded span : spans) {
            assertEquals("EchoService#echo", span.name);
            assertEquals("external/dubbo", span.type);
            assertTrue(span.exit, "the consumer span is an exit span");
            assertEquals("127.0.0.1:" + benchmark.port, span.destination);
            Recorded caller = only(callers, span.parentId, false, "the caller transaction of " + span);
            assertTrue(caller.sameTrace(span));
            Recorded provider = only(providers, span.id, true, "the provider transaction of " + span);
            assertTrue(provider.sameTrace(span), "consumer span and provider transaction share the trace id: " + span + " " + provider);
            assertEquals("EchoService#echo", provider.name);
        }
        assertEquals(0, benchmark.reporter.dropped());
        assertEquals(0, PluginHealth.of("dubbo").failures(), "failures inside the plugin");
    }

    /**
     * Sets the benchmark up, makes {@link #CALLS} calls and checks each answer, waits until the recorder (if any) has
     * {@code events}, then stops Dubbo and removes the instrumentation.
     */
    private static void callAndStop(DubboCallBenchmark benchmark, Recorder recorder, int events) throws Exception {
        benchmark.setUp();
        try {
            for (int i = 0; i < CALLS; i++) {
                assertEquals(DubboCallBenchmark.PAYLOAD, benchmark.call());
            }
            if (recorder != null) {
                recorder.await(events);
            }
        } finally {
            benchmark.tearDown();
            benchmark.uninstall();
        }
    }

    private static DubboCallBenchmark recording(String mode, Recorder recorder) {
        DubboCallBenchmark benchmark = new DubboCallBenchmark() {
            @Override
            Reporter reportTo(ReleasingReporter releasing) {
                recorder.delegate = releasing;
                return recorder;
            }
        };
        benchmark.mode = mode;
        return benchmark;
    }

    /** The one event whose id ({@code byParent} false) or parent id ({@code byParent} true) is {@code id}. */
    private static Recorded only(List<Recorded> events, long id, boolean byParent, String what) {
        Recorded found = null;
        for (Recorded e : events) {
            if ((byParent ? e.parentId : e.id) == id) {
                assertNull(found, what + " is unique");
                found = e;
            }
        }
        assertFalse(found == null, what + " was reported");
        return found;
    }

    /** What the test needs of one event, copied before the event is recycled. */
    private static final class Recorded {
        final boolean transaction;
        final String name;
        final String type;
        final boolean exit;
        final String destination;
        final long traceIdHigh;
        final long traceIdLow;
        final long id;
        final long parentId;

        Recorded(AbstractSpan event) {
            transaction = event instanceof Transaction;
            name = event.name().toString();
            if (event instanceof Span) {
                Span span = (Span) event;
                type = span.type() + "/" + span.subtype();
                exit = span.isExit();
                destination = span.context().destination().address() + ":" + span.context().destination().port();
            } else {
                type = ((Transaction) event).type();
                exit = false;
                destination = null;
            }
            traceIdHigh = event.traceContext().traceIdHigh();
            traceIdLow = event.traceContext().traceIdLow();
            id = event.traceContext().id();
            parentId = event.traceContext().parentId();
        }

        boolean sameTrace(Recorded other) {
            return traceIdHigh == other.traceIdHigh && traceIdLow == other.traceIdLow;
        }

        @Override
        public String toString() {
            return (transaction ? "transaction " : "span ") + name + " " + type + " trace " + Long.toHexString(traceIdHigh)
                    + Long.toHexString(traceIdLow) + " id " + Long.toHexString(id) + " parent " + Long.toHexString(parentId);
        }
    }

    /** Copies each event, then passes it on to the releasing reporter; errors are recorded as failures of the test. */
    private static final class Recorder implements Reporter {
        final ConcurrentLinkedQueue<Recorded> recorded = new ConcurrentLinkedQueue<>();
        volatile ReleasingReporter delegate;
        volatile int errors;

        @Override
        public boolean report(Transaction transaction) {
            recorded.add(new Recorded(transaction));
            return delegate.report(transaction);
        }

        @Override
        public boolean report(Span span) {
            recorded.add(new Recorded(span));
            return delegate.report(span);
        }

        @Override
        public boolean report(ErrorEvent error) {
            errors++;
            return delegate.report(error);
        }

        /** Waits until {@code count} events were reported (the provider may end its transaction after the answer left). */
        void await(int count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (recorded.size() < count && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        }

        List<Recorded> events() {
            assertEquals(0, errors, "no call failed");
            return new ArrayList<>(recorded);
        }
    }
}
