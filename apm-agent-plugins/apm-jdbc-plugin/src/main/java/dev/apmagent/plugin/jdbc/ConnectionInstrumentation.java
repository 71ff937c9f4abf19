package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Part of {@code jdbc-statement}, on {@code java.sql.Connection}: remembers the SQL of every prepared and callable
 * statement ({@code prepareStatement/prepareCall(String, ...)}), and forgets a connection's endpoint when it is closed.
 * While tracing, a prepare call counts as a JDBC call in progress, so statements the driver runs inside it (Connector/J
 * reads a function's parameters in {@code prepareCall}) record no span.
 * Types are pre-filtered by name ({@code *Connection*}, and DB2's obfuscated {@code com.ibm.db2.jcc.*}).
 */
final class ConnectionInstrumentation {

    private static final String ADVICE = "dev.apmagent.plugin.jdbc.ConnectionInstrumentation$";

    private ConnectionInstrumentation() {
    }

    static ElementMatcher.Junction<TypeDescription> preFilter() {
        return nameContains("Connection").or(nameStartsWith("com.ibm.db2.jcc."));
    }

    static List<Instrumentation> all() {
        ElementMatcher.Junction<MethodDescription> concrete = isPublic().and(not(isAbstract())).and(not(isBridge()));
        return Collections.<Instrumentation>singletonList(new JdbcInstrumentation(StatementInstrumentation.NAME, preFilter(),
                "java.sql.Connection",
                advice(concrete.and(namedOneOf("prepareStatement", "prepareCall")).and(takesArgument(0, String.class)),
                        "PrepareAdvice"),
                advice(concrete.and(named("close")).and(takesArguments(0)), "CloseAdvice")));
    }

    private static Instrumentation.AdviceBinding advice(ElementMatcher<? super MethodDescription> methods, String advice) {
        return new Instrumentation.AdviceBinding(methods, ADVICE + advice);
    }

    /** {@code prepareStatement(String, ...)}, {@code prepareCall(String, ...)}. */
    public static final class PrepareAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object onEnter() {
            return JdbcHelper.enterPrepare();
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void onExit(@Advice.Enter Object state, @Advice.Argument(0) String sql,
                                  @Advice.Return Object statement) {
            JdbcHelper.exitPrepare(state, sql, statement);
        }
    }

    /** {@code close()}. */
    public static final class CloseAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void onEnter(@Advice.This Object connection) {
            JdbcHelper.onConnectionClose(connection);
        }
    }
}
