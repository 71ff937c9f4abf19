package dev.apmagent.plugin.dubbo;

import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.TestTracer;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A failure after the helper created its span or transaction, but before the enter advice could hand it to the exit
 * (an unexpected Dubbo version whose attachments refuse to be written, say): the event is ended at once, so it goes
 * back to its pool instead of staying open. {@link TestTracer#verifyAndReset()} fails on an event never released.
 */
class DubboHelperFailureTest {

    private TestTracer testTracer;
    private Tracer tracer;

    @BeforeEach
    void start() {
        testTracer = TestTracer.create();
        tracer = testTracer.tracer();
        GlobalTracer.set(tracer);
    }

    @AfterEach
    void verify() {
        GlobalTracer.set(null);
        testTracer.verifyAndReset();
        assertThat(tracer.poolConflicts()).as("pool conflicts").isZero();
        assertThat(tracer.deactivationMismatches()).as("deactivation mismatches").isZero();
    }

    @Test
    void anExitSpanWhoseHeadersCannotBeWrittenIsEnded() {
        Transaction caller = tracer.startRootTransaction();
        tracer.activate(caller);
        try {
            assertThatThrownBy(() -> DubboHelper.startExitSpan(tracer, new UnwritableAttachments(), null, null))
                    .hasMessageContaining("read-only");
            assertThat(tracer.active()).as("nothing of the failed call stays active").isSameAs(caller);
        } finally {
            tracer.deactivate(caller);
            caller.end();
        }
        assertThat(testTracer.reporter().spans()).as("ended, so reported").hasSize(1);
    }

    @Test
    void aTransactionThatCannotBeNamedIsEnded() {
        assertThatThrownBy(() -> DubboHelper.startTransaction(tracer, new UnnamedService(), null, null))
                .hasMessageContaining("no interface");
        assertThat(tracer.active()).isNull();
        assertThat(testTracer.reporter().transactions()).hasSize(1);
    }

    private static final class UnwritableAttachments extends AsyncWatchdogTest.FixedAdapter {
        @Override
        public void clearTraceHeaders(Object invocation) {
            throw new UnsupportedOperationException("attachments are read-only");
        }
    }

    private static final class UnnamedService extends AsyncWatchdogTest.FixedAdapter {
        @Override
        public String serviceInterface(Object invoker) {
            throw new IllegalStateException("no interface");
        }
    }
}
