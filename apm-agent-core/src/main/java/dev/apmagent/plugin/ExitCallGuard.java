package dev.apmagent.plugin;

import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.Span;

/**
 * One exit span per application call, however the library nests its calls: a pool's proxy statement delegating to
 * the driver's, a wrapper driver calling the real one, {@code HttpURLConnection.getInputStream} calling its own
 * {@code connect}, an HTTP client's {@code execute} calling {@code doExecute} or the next interceptor. Only the outermost
 * call of a kind on a thread records a span; the calls inside it are nested and at most complete what it could not
 * know. The rules:
 * <ul>
 *   <li><b>Never an exit span under an active exit span</b> (of this plugin on another path, or of any other plugin):
 *   an outermost call under one enters nothing.</li>
 *   <li><b>An outermost call that records nothing still covers its nested calls</b> (trace not sampled,
 *   {@code transaction_max_spans} reached), so a dropped call is counted as dropped once, not once per layer.</li>
 *   <li><b>A call in progress whose context is no longer active is stale</b>: its exit never ran (an {@code Error}
 *   inside the advice), or application code running inside it (a database's Java function) activated a span of its
 *   own and makes calls of this kind there. The thread then starts afresh with a new {@link ExitCall} (the one
 *   allocation here, counted in the stale-call counter); the stale one stays with the calls that entered it, so the
 *   outer call's own exit still ends its span.</li>
 * </ul>
 * One guard per kind of call, in a {@code static final} field of the plugin's helper. After a thread's first call,
 * {@link #enter} is a thread-local lookup and a few comparisons, and allocates nothing; exit needs no lookup at all
 * ({@link ExitCall#exit} on the object enter returned).
 *
 * @param <C> the plugin's call state
 */
public abstract class ExitCallGuard<C extends ExitCall> {

    private final ThreadLocal<C> calls = new ThreadLocal<C>() {
        @Override
        protected C initialValue() {
            return newCall();
        }
    };
    private final PluginHealth.Counter staleCalls;

    /** @param staleCalls where stale calls are counted (see the class description) */
    protected ExitCallGuard(PluginHealth.Counter staleCalls) {
        this.staleCalls = staleCalls;
    }

    /** A call state in which nothing is in progress: for a thread's first call, and after a stale one. */
    protected abstract C newCall();

    /**
     * Enters a call of this kind while {@code active} (not null) is the thread's active event.
     *
     * @return null when nothing may be recorded: the call would be outermost and {@code active} is an exit span.
     * Otherwise the thread's call state one level deeper, either {@link ExitCall#isNested() nested} in a call in
     * progress or the outermost call, which then {@link ExitCall#start starts} its span or records none. Exit advice
     * hands each such result to {@link ExitCall#exit} exactly once.
     */
    public final C enter(AbstractSpan active) {
        C call = calls.get();
        if (call.depth > 0) {
            if (call.isOwnerContext(active)) {
                call.depth++;
                return call;
            }
            staleCalls.increment();
            call = newCall();
            calls.set(call);
        }
        if (active instanceof Span && ((Span) active).isExit()) {
            return null;
        }
        call.depth = 1;
        call.parent = active;
        return call;
    }
}
