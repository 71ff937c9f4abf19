package dev.apmagent.plugin.concurrent;

import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Tracer;

/**
 * The one mechanism of every hand-off this plugin covers (a pool's task, a fork-join task, a virtual or a new thread):
 * <ol>
 *   <li><b>capture</b> at hand-off: the event active on the caller's thread is remembered for the task object and a
 *   reference is taken on it, so it is never recycled before the task ran, even if it ends first (a task still
 *   becomes its child: its ids stay valid);</li>
 *   <li><b>activate</b> for the run: the entry is removed, the event activated on the running thread (the activation
 *   holds its own reference) and the hand-off's reference dropped;</li>
 *   <li><b>deactivate</b> when the run ends, normally or by an exception: the activation's reference goes with it;</li>
 *   <li><b>release</b> a task that will never run (rejected, removed, returned by {@code shutdownNow}, cancelled): the
 *   entry is removed and its reference dropped.</li>
 * </ol>
 * The task is never wrapped: its context lives in a bounded weak map keyed by the task object's identity (tasks are
 * often lambdas, whose classes cannot be given a field), one entry (a {@code WeakReference}, 40 bytes; 41 B measured per {@code execute}) per hand-off
 * while something is active, nothing when nothing is. An entry whose task is collected without running or being
 * released (a path no hook sees) leaves its event to the garbage collector instead of its pool.
 *
 * <p>The first hand-off of a task wins ({@code putIfAbsent}): a task handed on again before it ran (a pool's task
 * that a subclass resubmits, a fork-join task submitted through two hooked methods) keeps its first context.
 */
final class TaskContext {

    static final int MAX_QUEUED = 65_536;

    static final PluginHealth health = PluginHealth.of("concurrent");
    static final PluginHealth.Counter propagated = health.counter("tasks_propagated");
    static final PluginHealth.Counter notRemembered = health.counter("tasks_not_remembered");
    static final PluginHealth.Counter neverRun = health.counter("tasks_released_unrun");
    /**
     * Map only (the constructor, not {@link ContextStore#forType}): tasks are any {@code Runnable}, often lambdas and
     * other hidden classes, or JDK classes loaded before the agent; and {@code putIfAbsent} must have one winner when
     * two threads hand off the same task at once, which only the map's CAS gives.
     */
    private static final ContextStore<AbstractSpan> queued = new ContextStore<AbstractSpan>(MAX_QUEUED, 14);

    private TaskContext() {
    }

    /** Tasks handed off with a context that have not run yet (tests and diagnostics). */
    static int queuedTasks() {
        return queued.size();
    }

    /** The event active on the caller's thread, or null (no tracer, nothing active): the first, cheapest question. */
    static AbstractSpan active() {
        Tracer tracer = GlobalTracer.get();
        return tracer == null ? null : tracer.active();
    }

    /** Remembers {@code active} for {@code task}, holding a reference; false when the task has a context already or the store is full. */
    static boolean capture(Object task, AbstractSpan active) {
        if (task == null) {
            return false;
        }
        active.incrementReferences();
        if (queued.putIfAbsent(task, active)) {
            return true;
        }
        active.decrementReferences();
        if (queued.get(task) == null) {
            notRemembered.increment();
        }
        return false;
    }

    /** On the thread about to run {@code task}: activates its context, if it has one, and returns it for {@link #deactivate}. */
    static AbstractSpan activate(Object task) {
        if (task == null || queued.size() == 0) {
            return null; // the store's size is written before the hand-off that made the task visible to this thread
        }
        AbstractSpan context = queued.remove(task);
        if (context == null) {
            return null;
        }
        Tracer tracer = GlobalTracer.get();
        if (tracer != null) {
            tracer.activate(context); // takes the activation's own reference
            propagated.increment();
        }
        context.decrementReferences(); // the hand-off's
        return tracer == null ? null : context;
    }

    /** After the run: deactivates what {@link #activate} returned, releasing the activation's reference. */
    static void deactivate(AbstractSpan context) {
        Tracer tracer = GlobalTracer.get();
        if (tracer != null) {
            tracer.deactivate(context);
        }
    }

    /** {@code task} will not run: forgets its context and drops the hand-off's reference. */
    static void release(Object task) {
        if (task == null || queued.size() == 0) {
            return;
        }
        AbstractSpan context = queued.remove(task);
        if (context != null) {
            neverRun.increment();
            context.decrementReferences();
        }
    }

    /**
     * A hand-off hook: remembers the caller's active event for the task ({@link #task}); if the hand-off throws (a
     * rejection), forgets it again. Nothing but a thread-local read when nothing is active.
     */
    abstract static class Capture extends BridgeHandler {
        Capture(int hook) {
            super(hook);
        }

        /** The task handed off: the advised method's first argument unless a subclass says otherwise. */
        Object task(Object self, Object arg0) {
            return arg0;
        }

        /** Hand-offs that never carry context (the agent's own, a server's connector work); asked only when something is active. */
        boolean excluded(Object self, Object task) {
            return false;
        }

        @Override
        public final Object enter(Object self, Object arg0, Object arg1) {
            try {
                AbstractSpan active = active();
                if (active == null) {
                    return null;
                }
                Object task = task(self, arg0);
                if (task == null || excluded(self, task)) {
                    return null;
                }
                return capture(task, active) ? active : null;
            } catch (Throwable t) {
                health.failure();
                return null;
            }
        }

        @Override
        public final void exit(Object captured, Object self, Object arg0, Object result, Throwable thrown) {
            if (captured == null || thrown == null) {
                return;
            }
            try {
                release(task(self, arg0));
            } catch (Throwable t) {
                health.failure();
            }
        }
    }

    /**
     * A hook after which the task will not run: its context is released when the advised method's result says so
     * ({@link #released}, by default always).
     */
    abstract static class Release extends BridgeHandler {
        Release(int hook) {
            super(hook);
        }

        /** The task: the advised method's first argument unless a subclass says otherwise. */
        Object task(Object self, Object arg0) {
            return arg0;
        }

        boolean released(Object result) {
            return true;
        }

        @Override
        public final void exit(Object unused, Object self, Object arg0, Object result, Throwable thrown) {
            try {
                if (released(result)) {
                    release(task(self, arg0));
                }
            } catch (Throwable t) {
                health.failure();
            }
        }
    }

    /** A run hook: activates the task's context (the advised object) for the method's run. */
    abstract static class Run extends BridgeHandler {
        Run(int hook) {
            super(hook);
        }

        @Override
        public final Object enter(Object self, Object arg0, Object arg1) {
            try {
                return activate(self);
            } catch (Throwable t) {
                health.failure();
                return null;
            }
        }

        @Override
        public final void exit(Object context, Object self, Object arg0, Object result, Throwable thrown) {
            if (context == null) {
                return;
            }
            try {
                deactivate((AbstractSpan) context);
            } catch (Throwable t) {
                health.failure();
            }
        }
    }
}
