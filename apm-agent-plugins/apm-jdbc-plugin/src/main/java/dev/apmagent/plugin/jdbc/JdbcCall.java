package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.ExitCall;

/**
 * A JDBC call in progress on a thread (a statement, a prepare, a connect), as enter advice hands it to exit advice:
 * null when nothing is traced, else the thread's call, {@link #isNested() nested} in another JDBC call or the outermost
 * one with its {@link #span() span} (none when it records none). See {@link JdbcCalls}.
 */
public final class JdbcCall extends ExitCall {

    /** Whether the outermost call is a statement whose span still lacks its SQL, which a nested call may supply. */
    boolean sqlMissing;
    /** Whether a {@code Driver.connect} nested in this outermost call opened a physical connection. */
    boolean connected;

    JdbcCall() {
    }
}
