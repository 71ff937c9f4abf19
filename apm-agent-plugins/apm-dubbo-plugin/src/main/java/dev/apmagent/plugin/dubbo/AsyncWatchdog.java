package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.PendingSpan;
import dev.apmagent.plugin.PendingSpans;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.AbstractSpan;

import java.util.function.BiConsumer;

/**
 * The backstop for asynchronous invocations whose result never arrives, on the kit's {@link PendingSpans}: a fixed
 * table that the agent's scheduler thread scans every 100 ms, ending those past their deadline. Normally Dubbo
 * completes every consumer future itself (on response or on its own timeout), so the watchdog only matters for a
 * provider whose {@code CompletableFuture} or {@code AsyncContext} is never completed, or a protocol without timeouts.
 * Application threads only claim a slot with one CAS; when none is free the invocation is counted as unwatched and
 * left to Dubbo's own completion.
 */
final class AsyncWatchdog {

    private static final PluginHealth health = PluginHealth.of(DubboPlugin.NAME);
    /** Asynchronous invocations that never completed and were ended after their deadline. */
    private static final PluginHealth.Counter expired = health.counter("async_expired");
    /** Asynchronous invocations left to Dubbo's own completion because the table was full. */
    private static final PluginHealth.Counter unwatched = health.counter("async_unwatched");

    private AsyncWatchdog() {
    }

    /** Watches {@code pending} until it completes or its deadline passes; false when the table is full (counted). */
    static boolean watch(PendingInvocation pending) {
        if (PendingSpans.watch(pending)) {
            return true;
        }
        unwatched.increment();
        return false;
    }

    /**
     * An asynchronous invocation whose span (consumer) or transaction (provider) ends when its result arrives, on the
     * thread that completes it, or when the scan finds it past its deadline; whichever comes first takes the event
     * ({@link PendingSpan#take}) and ends it, once. Handed to Dubbo as the completion callback: it holds agent objects
     * only in its own fields, never in Dubbo's context or attachments.
     */
    static final class PendingInvocation extends PendingSpan implements BiConsumer<Object, Throwable> {

        private final DubboAdapter adapter;
        private final Object invoker;
        private final Object invocation;

        /** @param timeoutNanos from now until the scan ends the event if no result came */
        PendingInvocation(AbstractSpan event, DubboAdapter adapter, Object invoker, Object invocation, long timeoutNanos) {
            super(event, timeoutNanos);
            this.adapter = adapter;
            this.invoker = invoker;
            this.invocation = invocation;
        }

        /** Dubbo's completion: the result, or the failure of the invocation. */
        @Override
        public void accept(Object result, Throwable failure) {
            AbstractSpan taken = take();
            if (taken != null) {
                DubboHelper.finishAsync(taken, adapter, invoker, invocation, result, failure);
            }
        }

        /** The scan's verdict: the result never came. */
        @Override
        protected void onExpired(AbstractSpan event) {
            expired.increment();
            DubboHelper.expire(event, adapter, invoker, invocation);
        }
    }
}
