package dev.apmagent.plugin;

import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.TestTracer;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of {@link ExitCallGuard}, driven as a plugin's enter and exit advice drive it. */
class ExitCallGuardTest {

    private final TestTracer testTracer = TestTracer.create(Collections.<String, Object>singletonMap("transaction_max_spans", 3));
    private final Tracer tracer = testTracer.tracer();
    private final PluginHealth.Counter stale = PluginHealth.of("exit-call-guard-test").counter("stale_calls");
    private final ExitCallGuard<Call> guard = new ExitCallGuard<Call>(stale) {
        @Override
        protected Call newCall() {
            return new Call();
        }
    };

    static final class Call extends ExitCall {
    }

    @AfterEach
    void verify() {
        testTracer.verifyAndReset();
    }

    private Transaction startTransaction() {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        return t;
    }

    private void end(Transaction t) {
        tracer.deactivate(t);
        t.end();
    }

    /** What a plugin's enter advice does: the outermost call starts an exit span, if the tracer gives one. */
    private Call enter() {
        Call call = guard.enter(tracer.active());
        if (call != null && !call.isNested()) {
            Span span = tracer.createSpan(tracer.active());
            if (span != null) {
                span.setExit(true);
                span.setName("call");
                span.setType("external", "http", null);
                call.start(tracer, span);
            }
        }
        return call;
    }

    @Test
    void nestedCallsShareTheOutermostCallsSpan() {
        Transaction t = startTransaction();
        Call outer = enter();
        assertFalse(outer.isNested());
        Span span = outer.span();
        assertSame(span, tracer.active(), "the outermost call's span is active");
        Call inner = enter();
        assertSame(outer, inner);
        assertTrue(inner.isNested());
        assertSame(span, inner.span(), "a nested call sees the span it may complete");
        inner.exit(null);
        assertFalse(span.isEnded(), "a nested exit ends nothing");
        outer.exit(null);
        assertTrue(span.isEnded());
        assertEquals(Outcome.SUCCESS, span.outcome());
        assertSame(t, tracer.active());
        Call next = enter();
        assertFalse(next.isNested(), "after the outermost exit, the next call is outermost again");
        next.exit(null);
        end(t);
        assertEquals(2, testTracer.reporter().spans().size());
    }

    @Test
    void anOutermostCallThatThrowsEndsAFailedSpanWithTheException() {
        Transaction t = startTransaction();
        Call call = enter();
        IllegalStateException thrown = new IllegalStateException("the library threw");
        call.exit(thrown);
        end(t);
        assertEquals(Outcome.FAILURE, testTracer.reporter().spans().get(0).outcome());
        assertSame(thrown, testTracer.reporter().onlyError().exception());
    }

    @Test
    void nothingUnderAnActiveExitSpan() {
        Transaction t = startTransaction();
        Span exit = tracer.createSpan();
        exit.setExit(true);
        exit.setType("db", "h2", "query");
        tracer.activate(exit);
        assertNull(guard.enter(tracer.active()));
        tracer.deactivate(exit);
        exit.end();
        end(t);
    }

    @Test
    void anOutermostCallThatRecordsNothingStillCoversItsNestedCalls() {
        Transaction t = startTransaction();
        for (int i = 0; i < 3; i++) {
            enter().exit(null);
        }
        Call dropped = enter();
        assertNull(dropped.span(), "transaction_max_spans reached");
        Call nested = enter();
        assertTrue(nested.isNested(), "nested, so it is not dropped a second time");
        nested.exit(null);
        dropped.exit(null);
        end(t);
        assertEquals(1, t.spanCountDropped());
    }

    @Test
    void aCallWhoseExitNeverRanIsStaleInTheNextTransaction() {
        long before = stale.sum();
        Transaction first = startTransaction();
        Call lost = enter();
        tracer.deactivate(lost.span()); // as if an Error had skipped the exit advice after ending the span
        lost.span().end();
        end(first);
        Transaction second = startTransaction();
        Call fresh = enter();
        assertNotSame(lost, fresh);
        assertFalse(fresh.isNested());
        assertNotNull(fresh.span(), "recorded despite the stale state");
        fresh.exit(null);
        end(second);
        assertEquals(before + 1, stale.sum());
    }

    @Test
    void applicationCodeInsideACallTracesItsOwnCallsAndTheOuterCallStillEndsItsSpan() {
        Transaction t = startTransaction();
        Call outer = enter();
        Span outerSpan = outer.span();
        Span app = tracer.createSpan();
        app.setName("application code inside the call");
        app.setType("app", "internal", null);
        tracer.activate(app);
        Call inner = enter();
        assertNotSame(outer, inner);
        assertFalse(inner.isNested());
        Span innerSpan = inner.span();
        inner.exit(null);
        tracer.deactivate(app);
        app.end();
        assertNull(guard.enter(tracer.active()), "back in the outer call: its exit span is active");
        outer.exit(null);
        assertTrue(outerSpan.isEnded());
        assertEquals(app.traceContext().id(), innerSpan.traceContext().parentId());
        assertEquals(outerSpan.traceContext().id(), app.traceContext().parentId());
        end(t);
    }
}
