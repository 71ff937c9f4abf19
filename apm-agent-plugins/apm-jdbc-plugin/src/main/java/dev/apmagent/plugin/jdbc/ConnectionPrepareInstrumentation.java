package dev.apmagent.plugin.jdbc;

import net.bytebuddy.asm.Advice;

import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code jdbc-connection-prepare} on {@code java.sql.Connection}: remembers the SQL of every prepared and callable
 * statement ({@code prepareStatement/prepareCall(String, ...)}, {@link StatementSql}), and forgets a connection's
 * endpoint when it is closed ({@link Endpoints}); connection classes get a context field for that endpoint. While
 * tracing, a prepare call counts as a JDBC call in progress, so statements the driver runs inside it record no span. It serves the statement spans, so it is also in group
 * {@code jdbc-statement} (before it had a name of its own, it was part of that instrumentation). Types are
 * pre-filtered by name ({@code *Connection*}, and DB2's obfuscated {@code com.ibm.db2.jcc.*}).
 */
public final class ConnectionPrepareInstrumentation extends JdbcInstrumentation {

    public ConnectionPrepareInstrumentation() {
        super("jdbc-connection-prepare", "java.sql.Connection",
                nameContains("Connection").or(nameStartsWith("com.ibm.db2.jcc.")), "jdbc-statement");
    }

    @Override
    public List<AdviceBinding> advice() {
        return bindings(
                advice(concrete().and(namedOneOf("prepareStatement", "prepareCall")).and(takesArgument(0, String.class)),
                        "ConnectionPrepareStatementAdvice"),
                advice(concrete().and(named("close")).and(takesArguments(0)), "ConnectionCloseAdvice"));
    }

    /** Connections get the context field of {@link Endpoints}' store. */
    @Override
    public List<String> contextKeyTypes() {
        return Collections.singletonList(Endpoints.KEY_TYPE);
    }

    /** {@code prepareStatement(String, ...)}, {@code prepareCall(String, ...)}. */
    public static final class ConnectionPrepareStatementAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static JdbcCall enter() {
            return StatementSql.enterPrepare();
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter JdbcCall call, @Advice.Argument(0) String sql,
                                @Advice.Return Object statement) {
            StatementSql.exitPrepare(call, sql, statement);
        }
    }

    /** {@code close()}. */
    public static final class ConnectionCloseAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.This Object connection) {
            Endpoints.onConnectionClose(connection);
        }
    }
}
