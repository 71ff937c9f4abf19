package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.AgentScheduler;
import dev.apmagent.plugin.PendingSpans;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.plugin.Propagation;
import dev.apmagent.plugin.dubbo.AsyncWatchdog.PendingInvocation;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watchdog and the once-only completion of {@link PendingInvocation}, without Dubbo. The agent's scheduler thread
 * runs, as the agent's start-up starts it: the periodic scan is one of its tasks.
 */
class AsyncWatchdogTest {

    @BeforeAll
    static void startScheduler() {
        AgentScheduler.start();
    }

    @AfterAll
    static void stopScheduler() throws InterruptedException {
        AgentScheduler.stop();
    }

    @Test
    void expiredTransactionIsEndedAsTimeoutAndForgotten() throws InterruptedException {
        Transaction transaction = heldTransaction();
        PendingInvocation pending = new PendingInvocation(transaction, new FixedAdapter(), null, null, -1);

        assertThat(AsyncWatchdog.watch(pending)).isTrue();
        awaitEnded(transaction);

        assertThat(transaction.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(transaction.result()).isEqualTo("Timeout");
        pending.accept(null, new IllegalStateException("too late")); // a late result changes nothing
        assertThat(transaction.result()).isEqualTo("Timeout");
    }

    /**
     * No plugin starts a thread: one started from the application thread that made the first asynchronous call would
     * keep what that thread carries (thread group, context class loader, inheritable thread locals) alive. The scan is a
     * task of the agent's scheduler thread, which ends the expired invocation.
     */
    @Test
    void expiredInvocationIsEndedOnTheAgentsSchedulerThreadAndNoPluginThreadIsStarted() throws InterruptedException {
        PluginHealth.Counter expired = PluginHealth.of("dubbo").counter("async_expired");
        long expiredBefore = expired.sum();
        Span span = heldSpan();
        FixedAdapter adapter = new FixedAdapter();
        PendingInvocation pending = new PendingInvocation(span, adapter, null, null, -1);

        assertThat(AsyncWatchdog.watch(pending)).isTrue();
        awaitEnded(span);

        assertThat(span.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(adapter.calledOn).as("the thread that ended it").containsOnly("apm-agent-scheduler");
        assertThat(expired.sum()).isEqualTo(expiredBefore + 1);
        List<String> threads = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            threads.add(t.getName());
        }
        assertThat(threads).noneMatch(name -> name.contains("watchdog") || name.startsWith("apm-dubbo"));
    }

    @Test
    void completedInvocationIsForgottenWithoutExpiring() {
        Span span = heldSpan();
        long hour = 3_600_000_000_000L;
        PendingInvocation pending = new PendingInvocation(span, new FixedAdapter(), null, null, hour);
        assertThat(AsyncWatchdog.watch(pending)).isTrue();

        pending.accept("result", null);
        assertThat(span.isEnded()).isTrue();
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(span.context().destination().address().toString()).isEqualTo("10.0.0.7");
        assertThat(span.context().destination().port()).isEqualTo(20880);

        PendingSpans.scan(System.nanoTime() + hour + 1); // even past its deadline, a completed invocation is not expired again
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
        pending.expire();
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void failureCarriedByTheResultFailsTheSpan() {
        Span span = heldSpan();
        PendingInvocation pending = new PendingInvocation(span, new FixedAdapter(), null, null, 1_000_000_000L);

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

    private static void awaitEnded(AbstractSpan event) throws InterruptedException {
        for (int i = 0; i < 300 && !event.isEnded(); i++) {
            Thread.sleep(10);
        }
        assertThat(event.isEnded()).as("ended by the watchdog's scan").isTrue();
    }

    /**
     * An adapter with fixed answers: results are plain objects, {@link #FAILED_RESULT} carries a failure. Records the
     * threads that read a destination.
     */
    static class FixedAdapter implements DubboAdapter {
        static final Object FAILED_RESULT = new Object();

        final List<String> calledOn = new CopyOnWriteArrayList<>();

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
        public boolean declaresMethod(Object invoker, String method) {
            return true;
        }

        @Override
        public void clearTraceHeaders(Object invocation) {
        }

        @Override
        public String remoteHost(Object invoker, Object invocation) {
            calledOn.add(Thread.currentThread().getName());
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
