package dev.apmagent.plugin;

/**
 * How deeply calls of one kind nest on the current thread: a pool's proxy statement delegating to the driver's, an
 * HTTP client's {@code execute} calling its own {@code doExecute}, a wrapper driver calling the real one. Only the
 * outermost call records anything; the calls inside it see {@code depth() > 1} and at most complete what the outer
 * call could not know.
 *
 * <p>One instance per kind of call, held in a {@code static final} field of the plugin's helper. Each thread gets its
 * counter on first use; after that {@link #enter()} and {@link #exit()} are a thread-local lookup and an increment,
 * and allocate nothing. Enter and exit must pair up: call {@link #exit()} from exit advice exactly when the matching
 * enter called {@link #enter()}, and let the outermost exit {@link #reset()} if its state may be stale.
 */
public final class CallDepth {

    private final ThreadLocal<Counter> counters = new ThreadLocal<Counter>() {
        @Override
        protected Counter initialValue() {
            return new Counter();
        }
    };

    /** Enters a call; true when it is the outermost call of this kind on this thread. */
    public boolean enter() {
        return counters.get().value++ == 0;
    }

    /** Leaves a call; true when it was the outermost one. The depth never goes below zero. */
    public boolean exit() {
        Counter c = counters.get();
        if (c.value > 0) {
            c.value--;
        }
        return c.value == 0;
    }

    /** Calls of this kind in progress on this thread (0 when none). */
    public int depth() {
        return counters.get().value;
    }

    /** Forgets calls whose exit never ran (an {@code Error} inside the advice); the next enter is the outermost. */
    public void reset() {
        counters.get().value = 0;
    }

    private static final class Counter {
        int value;
    }
}
