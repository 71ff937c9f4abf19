package dev.apmagent.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class ActivationTest extends AbstractTracerTest {

    @Test
    void nestedActivationsRestoreTheOuterEvent() {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        assertSame(t, tracer.active());
        Span a = tracer.createSpan();
        tracer.activate(a);
        Span b = tracer.createSpan();
        tracer.activate(b);
        assertSame(b, tracer.active());
        assertSame(t, tracer.currentTransaction());
        assertEquals(3, tracer.activeDepth());
        tracer.deactivate(b);
        assertSame(a, tracer.active());
        tracer.deactivate(a);
        assertSame(t, tracer.active());
        tracer.deactivate(t);
        assertNull(tracer.active());
        b.end();
        a.end();
        t.end();
        assertEquals(0, tracer.unwoundActivations());
        assertEquals(0, tracer.deactivationMismatches());
    }

    @Test
    void sameEventActivatedTwiceNeedsTwoDeactivations() {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        tracer.activate(t);
        assertEquals(3, t.referenceCount());
        tracer.deactivate(t);
        assertSame(t, tracer.active());
        tracer.deactivate(t);
        assertNull(tracer.active());
        assertEquals(1, t.referenceCount());
        t.end();
    }

    @Test
    void deactivatingAnOuterEventUnwindsInnerOnesAnExceptionSkipped() {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        Span a = tracer.createSpan();
        Span b = tracer.createSpan(a);
        try {
            tracer.activate(a);
            tracer.activate(b);
            throw new IllegalStateException("instrumented code threw before the inner deactivations");
        } catch (IllegalStateException expected) {
            // the plugin's exit advice of a and b never ran
        }
        assertEquals(3, tracer.activeDepth());
        tracer.deactivate(t);
        assertEquals(0, tracer.activeDepth());
        assertEquals(2, tracer.unwoundActivations());
        assertEquals(2, a.referenceCount(), "a: its starter and b (its child) hold it; the activation is released");
        assertEquals(1, b.referenceCount(), "b: only its starter holds it");
        b.end();
        a.end();
        t.end();
    }

    @Test
    void deactivatingAnEventNotOnTheStackChangesNothing() {
        Transaction t = tracer.startRootTransaction();
        Span other = tracer.createSpan(t);
        tracer.activate(t);
        tracer.deactivate(other);
        assertSame(t, tracer.active());
        assertEquals(1, tracer.deactivationMismatches());
        tracer.deactivate(t);
        tracer.deactivate(t);
        assertEquals(2, tracer.deactivationMismatches());
        assertNull(tracer.active());
        tracer.deactivate(null);
        tracer.activate(null);
        assertNull(tracer.active());
        other.end();
        t.end();
    }

    @Test
    void activationKeepsAnEventEndedAndReportedOnAnotherThreadFromBeingRecycled() throws Exception {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        Span s = tracer.createSpan();
        tracer.activate(s);
        Thread other = new Thread(new Runnable() {
            @Override
            public void run() {
                s.end();
            }
        });
        other.start();
        other.join();
        assertTrue(s.isEnded());
        reporter.clear(); // the reporter serialized and released the span
        assertTrue(pools.isInUse(s), "still active on this thread: not recycled");
        assertSame(s, tracer.active());
        assertEquals(1, s.referenceCount());
        tracer.deactivate(s);
        assertFalse(pools.isInUse(s), "last reference gone: recycled");
        tracer.deactivate(t);
        t.end();
    }

    @Test
    void stacksArePerThread() throws Exception {
        Transaction t = tracer.startRootTransaction();
        tracer.activate(t);
        AtomicReference<AbstractSpan> seen = new AtomicReference<>(t);
        Thread other = new Thread(new Runnable() {
            @Override
            public void run() {
                seen.set(tracer.active());
                Span child = tracer.createSpan(t); // explicit parent across threads
                tracer.activate(child);
                tracer.deactivate(child);
                child.end();
            }
        });
        other.start();
        other.join();
        assertNull(seen.get());
        assertSame(t, tracer.active());
        tracer.deactivate(t);
        t.end();
        assertEquals(1, reporter.spans().size());
    }

    @Test
    void activationsBeyondTheMaximumDepthAreCountedNotStored() {
        Transaction t = tracer.startRootTransaction();
        int depth = ActiveStack.MAX_DEPTH + 10;
        for (int i = 0; i < depth; i++) {
            tracer.activate(t);
        }
        assertEquals(ActiveStack.MAX_DEPTH, tracer.activeDepth());
        assertEquals(1 + ActiveStack.MAX_DEPTH, t.referenceCount());
        for (int i = 0; i < depth; i++) {
            assertSame(t, tracer.active());
            tracer.deactivate(t);
        }
        assertNull(tracer.active());
        assertEquals(1, t.referenceCount());
        assertEquals(0, tracer.deactivationMismatches());
        t.end();
    }
}
