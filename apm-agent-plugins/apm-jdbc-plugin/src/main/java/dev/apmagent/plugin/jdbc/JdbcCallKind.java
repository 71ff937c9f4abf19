package dev.apmagent.plugin.jdbc;

import dev.apmagent.trace.Span;

import java.sql.Connection;

/**
 * What differs between the JDBC calls that enter and exit through {@link JdbcCalls}: whether the outermost call records
 * a span and how it fills it in, what a nested call completes, where the span's endpoint comes from at exit. Instances
 * are stateless and held in {@code static final} fields, so each entry point hands {@link JdbcCalls} one constant kind.
 * This base kind is a JDBC call in progress that records nothing (a prepare), so that what the driver runs inside it is
 * nested and records nothing either.
 *
 * @param <T> what the call is made on: a statement, a driver, a data source
 */
class JdbcCallKind<T> {

    /** Whether an outermost call records a span; may ask the target (does this driver take this URL?). */
    boolean recordsSpan(T target, String arg) {
        return false;
    }

    /**
     * Whether an outermost call that {@link #recordsSpan records a span} decides only at exit whether it is worth one
     * ({@link dev.apmagent.plugin.ExitCall#deferSpan}); the exit advice then records it with
     * {@link dev.apmagent.plugin.ExitCall#startLate}.
     */
    boolean decidesAtExit() {
        return false;
    }

    /** Types and names the outermost call's new span after its target and argument (SQL or URL). */
    void start(JdbcCall call, Span span, T target, String arg) {
    }

    /** A call nested in an outermost call that records a span completes what that span could not know. */
    void completeOwner(JdbcCall call, Span owner, T target, String arg) {
    }

    /**
     * The connection whose endpoint the outermost call's span gets at exit when it has none yet.
     *
     * @param source what the exit advice has: the statement, or the connection the call returned
     */
    Connection connectionOf(Object source) {
        return null;
    }
}
