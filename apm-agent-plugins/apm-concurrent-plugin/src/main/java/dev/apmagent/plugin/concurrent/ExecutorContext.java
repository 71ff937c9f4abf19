package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Tracer;

/**
 * The agent's side of {@link ExecutorInstrumentation}: three bridge handlers sharing a store of the contexts of
 * queued tasks. Each handler is an exception barrier.
 *
 * <p>References: a remembered event is held ({@code incrementReferences}) from {@code execute} until the worker is
 * done with the task, so it is never recycled while a task may still activate it, even after it ended. A task that
 * never runs (removed from the queue, returned by {@code shutdownNow}, run by a rejection policy on the caller's
 * thread) keeps its entry until the task is garbage collected; the event is then not returned to its pool, and is
 * collected too. The store is bounded: beyond {@value #MAX_QUEUED} remembered tasks, new ones run without context
 * (counted as {@code agent.plugin.tasks_not_remembered}).
 *
 * <p>The worker remembers the event it activated in a per-thread slot instead of looking the task up again after it
 * ran: if a subclass's {@code afterExecute} skips {@code super}, the next {@code beforeExecute} on that thread still
 * deactivates and releases it.
 */
final class ExecutorContext {

    static final int MAX_QUEUED = 65_536;

    static final PluginHealth health = PluginHealth.of("concurrent");
    static final PluginHealth.Counter propagated = health.counter("tasks_propagated");
    static final PluginHealth.Counter notRemembered = health.counter("tasks_not_remembered");
    /**
     * Map only (the constructor, not {@link ContextStore#forType}): tasks are any {@code Runnable}, often lambdas and
     * other hidden classes, which the class file hook never sees, or JDK classes loaded before the agent; no key type
     * to give a context field. And {@code putIfAbsent} must have one winner when two threads submit the same task at
     * once, which only the map's CAS gives.
     */
    private static final ContextStore<AbstractSpan> queued = new ContextStore<AbstractSpan>(MAX_QUEUED, 14);
    private static final ThreadLocal<AbstractSpan[]> running = new ThreadLocal<AbstractSpan[]>() {
        @Override
        protected AbstractSpan[] initialValue() {
            return new AbstractSpan[1];
        }
    };

    private ExecutorContext() {
    }

    /** Tasks waiting in a pool with a context (tests and diagnostics). */
    static int queuedTasks() {
        return queued.size();
    }

    /** {@code execute(task)}: remembers the caller's active event for the task. */
    public static final class Execute extends BridgeHandler {
        public Execute() {
            super(Bridge.EXECUTOR_EXECUTE);
        }

        @Override
        public Object enter(Object executor, Object task, Object unused) {
            Tracer tracer = GlobalTracer.get();
            if (tracer == null || task == null) {
                return null;
            }
            AbstractSpan active = tracer.active();
            if (active == null) {
                return null;
            }
            try {
                active.incrementReferences();
                if (queued.putIfAbsent(task, active)) {
                    return active;
                }
                // already queued with a context (the same task submitted twice), or the store is full
                active.decrementReferences();
                if (queued.get(task) == null) {
                    notRemembered.increment();
                }
            } catch (Throwable t) {
                health.failure();
            }
            return null;
        }

        @Override
        public void exit(Object captured, Object executor, Object task, Object result, Throwable thrown) {
            if (captured == null || thrown == null) {
                return;
            }
            try {
                // rejected: the task will not run, so nothing will release what execute remembered
                if (queued.remove(task) == captured) {
                    ((AbstractSpan) captured).decrementReferences();
                }
            } catch (Throwable t) {
                health.failure();
            }
        }
    }

    /** {@code beforeExecute(thread, task)}, on the worker thread: activates the task's context. */
    public static final class BeforeExecute extends BridgeHandler {
        public BeforeExecute() {
            super(Bridge.EXECUTOR_BEFORE_EXECUTE);
        }

        @Override
        public Object enter(Object executor, Object task, Object unused) {
            try {
                AbstractSpan[] slot = emptySlot(); // holds something only if the previous task's afterExecute never ran
                AbstractSpan context = queued.remove(task);
                if (context == null) {
                    return null;
                }
                Tracer tracer = GlobalTracer.get();
                if (tracer == null) {
                    context.decrementReferences();
                    return null;
                }
                tracer.activate(context);
                slot[0] = context;
                propagated.increment();
            } catch (Throwable t) {
                health.failure();
            }
            return null;
        }
    }

    /** {@code afterExecute(task, thrown)}, on the worker thread: deactivates and releases the task's context. */
    public static final class AfterExecute extends BridgeHandler {
        public AfterExecute() {
            super(Bridge.EXECUTOR_AFTER_EXECUTE);
        }

        @Override
        public Object enter(Object executor, Object task, Object thrown) {
            try {
                emptySlot();
            } catch (Throwable t) {
                health.failure();
            }
            return null;
        }
    }

    /** This worker's slot, emptied: the event it still held is deactivated and released. */
    private static AbstractSpan[] emptySlot() {
        AbstractSpan[] slot = running.get();
        AbstractSpan context = slot[0];
        if (context == null) {
            return slot;
        }
        slot[0] = null;
        try {
            Tracer tracer = GlobalTracer.get();
            if (tracer != null) {
                tracer.deactivate(context);
            }
        } finally {
            context.decrementReferences();
        }
        return slot;
    }
}
