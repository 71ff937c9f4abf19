package dev.apmagent.plugin.dubbo;

import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import dev.apmagent.plugin.Propagation;
import org.junit.jupiter.api.Test;

import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/** The watchdog and the once-only completion of {@link PendingInvocation}, without Dubbo. */
class AsyncWatchdogTest {

    @Test
    void expiredTransactionIsEndedAsTimeoutAndForgotten() throws InterruptedException {
        Transaction transaction = heldTransaction();
        PendingInvocation pending = new PendingInvocation(transaction, new FixedAdapter(), null, null, System.nanoTime() - 1);

        assertThat(AsyncWatchdog.watch(pending)).isTrue();
        awaitEnded(transaction);

        assertThat(transaction.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(transaction.result()).isEqualTo("Timeout");
        pending.accept(null, new IllegalStateException("too late")); // a late result changes nothing
        assertThat(transaction.result()).isEqualTo("Timeout");
    }

    @Test
    void completedInvocationIsForgottenWithoutExpiring() {
        Span span = heldSpan();
        long farFuture = System.nanoTime() + 3_600_000_000_000L;
        PendingInvocation pending = new PendingInvocation(span, new FixedAdapter(), null, null, farFuture);
        assertThat(AsyncWatchdog.watch(pending)).isTrue();

        pending.accept("result", null);
        assertThat(span.isEnded()).isTrue();
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(span.context().destination().address().toString()).isEqualTo("10.0.0.7");
        assertThat(span.context().destination().port()).isEqualTo(20880);

        AsyncWatchdog.scan(farFuture + 1); // even past its deadline, a completed invocation is not expired again
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
        pending.expire();
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void failureCarriedByTheResultFailsTheSpan() {
        Span span = heldSpan();
        PendingInvocation pending = new PendingInvocation(span, new FixedAdapter(), null, null, System.nanoTime() + 1_000_000_000L);

        pending.accept(FixedAdapter.FAILED_RESULT, null);

        assertThat(span.isEnded()).isTrue();
        assertThat(span.outcome()).isEqualTo(Outcome.FAILURE);
    }

    private static Transaction heldTransaction() {
        Transaction t = new Transaction();
        t.setTiming(System.currentTimeMillis() * 1000, System.nanoTime());
        t.incrementReferences(); // keep it readable after end (a stand-alone event resets itself on its last release)
        return t;
    }

    private static Span heldSpan() {
        Span s = new Span();
        s.setTiming(System.currentTimeMillis() * 1000, System.nanoTime());
        s.incrementReferences();
        return s;
    }

    private static void awaitEnded(Transaction transaction) throws InterruptedException {
        for (int i = 0; i < 300 && !transaction.isEnded(); i++) {
            Thread.sleep(10);
        }
        assertThat(transaction.isEnded()).as("ended by the watchdog thread").isTrue();
    }

    /** An adapter with fixed answers: results are plain objects, {@link #FAILED_RESULT} carries a failure. */
    static final class FixedAdapter implements DubboAdapter {
        static final Object FAILED_RESULT = new Object();

        @Override
        public boolean isConsumer(Object invoker) {
            return true;
        }

        @Override
        public boolean isInJvm(Object invoker) {
            return false;
        }

        @Override
        public String serviceInterface(Object invoker) {
            return "com.shop.OrderService";
        }

        @Override
        public String methodName(Object invocation) {
            return "place";
        }

        @Override
        public void clearTraceHeaders(Object invocation) {
        }

        @Override
        public String remoteHost(Object invoker, Object invocation) {
            return "10.0.0.7";
        }

        @Override
        public int remotePort(Object invoker, Object invocation) {
            return 20880;
        }

        @Override
        public boolean isPending(Object result) {
            return false;
        }

        @Override
        public void whenComplete(Object result, BiConsumer<Object, Throwable> callback) {
            callback.accept(result, null);
        }

        @Override
        public Throwable failure(Object result) {
            return result == FAILED_RESULT ? new IllegalStateException("failed") : null;
        }

        @Override
        public boolean isTimeout(Throwable failure) {
            return false;
        }

        @Override
        public long timeoutMillis(Object invoker, Object invocation) {
            return 1000;
        }

        @Override
        public String first(Object carrier, String name) {
            return null;
        }

        @Override
        public void all(Object carrier, String name, Propagation.HeaderSink sink) {
        }

        @Override
        public void set(Object carrier, String name, String value) {
        }
    }
}
