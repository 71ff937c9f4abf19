package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.ExitCallGuard;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;

/**
 * The one way into and out of a JDBC call, shared by statements, prepares and connects ({@link JdbcCallKind} says what
 * differs), behind an exception barrier: it never throws and never changes an argument, a result or an exception.
 *
 * <h2>When a span is created</h2>
 * Only when a tracer runs and an event is active on the thread; otherwise {@link #enter} returns null after two reads
 * (the tracer, the thread's active event) and allocates nothing. Then, by the rules of {@link ExitCallGuard}:
 * <ol>
 *   <li><b>One span per application call.</b> A JDBC call made while another JDBC call on the same thread is running
 *   (a pool's proxy statement delegating to the driver's, a wrapper driver delegating to the real one, a pool's
 *   {@code getConnection} calling {@code Driver.connect}, a driver running statements of its own) is <i>nested</i> and
 *   creates nothing. It only completes what the outer call could not know (the connection's address, the SQL) from its
 *   own, more physical, objects. {@code prepareStatement/prepareCall} count as JDBC calls in progress too (they record
 *   no span), so the metadata queries some drivers run to prepare a call are not recorded.</li>
 *   <li><b>Never a db span under an active exit span.</b> Database spans are exit spans; when the active event is an
 *   exit span (of this plugin on another path, or of any other plugin), no span is created.</li>
 * </ol>
 * The outer call that created no span (trace not sampled, {@code transaction_max_spans} reached) covers its nested
 * calls too, so a dropped query is counted as dropped once, not once per layer.
 *
 * <p>Counters, in the agent's health metrics under {@code plugin: jdbc}: {@code agent.plugin.failures} (every exception
 * a barrier of this plugin caught, the library's included: a driver that throws where JDBC says it answers) and
 * {@code agent.plugin.stale_calls} (see {@link ExitCallGuard}: a call whose exit never ran, or application code inside
 * a statement, such as a database's Java function, that activated a span of its own and runs JDBC calls there, which
 * then record their own spans).
 */
final class JdbcCalls {

    static final PluginHealth health = PluginHealth.of(JdbcPlugin.NAME);

    private static final ExitCallGuard<JdbcCall> calls = new ExitCallGuard<JdbcCall>(health.counter("stale_calls")) {
        @Override
        protected JdbcCall newCall() {
            return new JdbcCall();
        }
    };

    private JdbcCalls() {
    }

    /**
     * Enters a JDBC call of {@code kind} on {@code target} with its argument (SQL or URL, may be null).
     *
     * @return null when nothing is traced; else the thread's call, nested or outermost, for {@link #exit}
     */
    static <T> JdbcCall enter(JdbcCallKind<T> kind, T target, String arg) {
        Tracer tracer = GlobalTracer.get();
        if (tracer == null) {
            return null;
        }
        AbstractSpan active = tracer.active();
        if (active == null) {
            return null;
        }
        JdbcCall call;
        try {
            call = calls.enter(active);
        } catch (Throwable t) {
            health.failure();
            return null;
        }
        if (call == null) {
            return null;
        }
        if (call.isNested()) {
            completeOwner(kind, call, target, arg);
            return call;
        }
        return startOutermost(kind, call, tracer, active, target, arg);
    }

    private static <T> void completeOwner(JdbcCallKind<T> kind, JdbcCall call, T target, String arg) {
        Span owner = call.span();
        if (owner == null) {
            return;
        }
        try {
            kind.completeOwner(call, owner, target, arg);
        } catch (Throwable t) {
            health.failure();
        }
    }

    private static <T> JdbcCall startOutermost(JdbcCallKind<T> kind, JdbcCall call, Tracer tracer, AbstractSpan active,
                                               T target, String arg) {
        Span span = null;
        try {
            call.sqlMissing = false;
            call.connected = false;
            if (kind.recordsSpan(target, arg)) {
                if (kind.decidesAtExit()) {
                    call.deferSpan();
                    return call;
                }
                span = tracer.createSpan(active);
            }
            if (span != null) {
                span.setExit(true);
                kind.start(call, span, target, arg);
                call.start(tracer, span);
            }
            return call;
        } catch (Throwable t) {
            health.failure();
            if (span != null && call.span() != span) {
                span.end(); // created, never activated
            }
            leave(call, null);
            return null;
        }
    }

    /**
     * At the exit of an outermost call whose kind {@link JdbcCallKind#decidesAtExit decides at exit}: records its span
     * after the fact, started when the call started, when {@code notable}. Never throws.
     */
    static <T> void recordLate(JdbcCallKind<T> kind, JdbcCall call, T target, boolean notable) {
        if (!notable) {
            return;
        }
        try {
            Tracer tracer = GlobalTracer.get();
            Span span = tracer == null ? null : call.startLate(tracer);
            if (span != null) {
                span.setExit(true);
                kind.start(call, span, target, null);
            }
        } catch (Throwable t) {
            health.failure();
        }
    }

    /**
     * Leaves a call {@link #enter} returned (nothing for null). The outermost call's span gets the endpoint of
     * {@code source}'s connection if it has none yet, and {@code rowsAffected} if not negative and the call returned,
     * and ends.
     */
    static void exit(JdbcCallKind<?> kind, JdbcCall call, Object source, Throwable thrown, long rowsAffected) {
        if (call == null) {
            return;
        }
        try {
            Span span = call.isNested() ? null : call.span();
            if (span != null) {
                if (span.subtype() == null) {
                    // still in progress: whatever the driver runs for getMetaData() records nothing
                    Endpoints.resolve(kind.connectionOf(source)).applyTo(span);
                }
                if (rowsAffected >= 0 && thrown == null) {
                    // a call that threw returned nothing: ByteBuddy hands exit advice 0 for its return value
                    span.context().db().setRowsAffected(rowsAffected);
                }
            }
        } catch (Throwable t) {
            health.failure();
        }
        leave(call, thrown);
    }

    private static void leave(JdbcCall call, Throwable thrown) {
        try {
            call.exit(thrown);
        } catch (Throwable t) {
            health.failure();
        }
    }
}
