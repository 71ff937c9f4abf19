package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.sql.Statement;
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
 * {@code jdbc-statement} on {@code java.sql.Statement} (and so {@code PreparedStatement}, {@code CallableStatement}):
 * spans for the execute methods, the SQL of batches, and forgetting a statement's SQL when it is closed. Types are
 * pre-filtered by name ({@code *Statement*}, and DB2's obfuscated {@code com.ibm.db2.jcc.*}).
 */
final class StatementInstrumentation {

    static final String NAME = "jdbc-statement";

    private static final String ADVICE = "dev.apmagent.plugin.jdbc.StatementInstrumentation$";

    private StatementInstrumentation() {
    }

    static ElementMatcher.Junction<TypeDescription> preFilter() {
        return nameContains("Statement").or(nameStartsWith("com.ibm.db2.jcc."));
    }

    static List<Instrumentation> all() {
        ElementMatcher.Junction<MethodDescription> concrete = isPublic().and(not(isAbstract())).and(not(isBridge()));
        return Collections.<Instrumentation>singletonList(new JdbcInstrumentation(NAME, preFilter(), "java.sql.Statement",
                advice(concrete.and(namedOneOf("execute", "executeQuery")).and(takesArgument(0, String.class)),
                        "ExecuteWithSqlAdvice"),
                advice(concrete.and(namedOneOf("executeUpdate", "executeLargeUpdate")).and(takesArgument(0, String.class)),
                        "UpdateWithSqlAdvice"),
                advice(concrete.and(namedOneOf("execute", "executeQuery")).and(takesArguments(0)),
                        "ExecutePreparedAdvice"),
                advice(concrete.and(namedOneOf("executeUpdate", "executeLargeUpdate")).and(takesArguments(0)),
                        "UpdatePreparedAdvice"),
                advice(concrete.and(namedOneOf("executeBatch", "executeLargeBatch")).and(takesArguments(0)),
                        "ExecuteBatchAdvice"),
                advice(concrete.and(named("addBatch")).and(takesArguments(String.class)), "AddBatchAdvice"),
                advice(concrete.and(named("close")).and(takesArguments(0)), "CloseAdvice")));
    }

    private static Instrumentation.AdviceBinding advice(ElementMatcher<? super MethodDescription> methods, String advice) {
        return new Instrumentation.AdviceBinding(methods, ADVICE + advice);
    }

    /** {@code execute(String, ...)}, {@code executeQuery(String)}. */
    public static final class ExecuteWithSqlAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object onEnter(@Advice.This Statement statement, @Advice.Argument(0) String sql) {
            return JdbcHelper.enterStatement(statement, sql, JdbcHelper.QUERY);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void onExit(@Advice.This Statement statement, @Advice.Enter Object state,
                                  @Advice.Thrown Throwable thrown) {
            JdbcHelper.exitStatement(state, statement, thrown, -1L);
        }
    }

    /** {@code executeUpdate(String, ...)}, {@code executeLargeUpdate(String, ...)}: the update count is rows affected. */
    public static final class UpdateWithSqlAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object onEnter(@Advice.This Statement statement, @Advice.Argument(0) String sql) {
            return JdbcHelper.enterStatement(statement, sql, JdbcHelper.QUERY);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void onExit(@Advice.This Statement statement, @Advice.Enter Object state,
                                  @Advice.Return long rows, @Advice.Thrown Throwable thrown) {
            JdbcHelper.exitStatement(state, statement, thrown, rows);
        }
    }

    /** {@code execute()}, {@code executeQuery()} of prepared and callable statements: the SQL given at prepare time. */
    public static final class ExecutePreparedAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object onEnter(@Advice.This Statement statement) {
            return JdbcHelper.enterRemembered(statement, JdbcHelper.QUERY);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void onExit(@Advice.This Statement statement, @Advice.Enter Object state,
                                  @Advice.Thrown Throwable thrown) {
            JdbcHelper.exitStatement(state, statement, thrown, -1L);
        }
    }

    /** {@code executeUpdate()}, {@code executeLargeUpdate()} of prepared and callable statements. */
    public static final class UpdatePreparedAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object onEnter(@Advice.This Statement statement) {
            return JdbcHelper.enterRemembered(statement, JdbcHelper.QUERY);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void onExit(@Advice.This Statement statement, @Advice.Enter Object state,
                                  @Advice.Return long rows, @Advice.Thrown Throwable thrown) {
            JdbcHelper.exitStatement(state, statement, thrown, rows);
        }
    }

    /** {@code executeBatch()}, {@code executeLargeBatch()}: rows affected is the sum of the update counts. */
    public static final class ExecuteBatchAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object onEnter(@Advice.This Statement statement) {
            return JdbcHelper.enterRemembered(statement, JdbcHelper.EXEC);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void onExit(@Advice.This Statement statement, @Advice.Enter Object state,
                                  @Advice.Return Object counts, @Advice.Thrown Throwable thrown) {
            JdbcHelper.exitBatch(state, statement, thrown, counts);
        }
    }

    /** {@code addBatch(String)}: the first SQL of a plain statement's batch names the batch span. */
    public static final class AddBatchAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void onEnter(@Advice.This Statement statement, @Advice.Argument(0) String sql) {
            JdbcHelper.onAddBatch(statement, sql);
        }
    }

    /** {@code close()}: the statement's SQL is forgotten at once (weak references never reach the collector). */
    public static final class CloseAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void onEnter(@Advice.This Object statement) {
            JdbcHelper.onStatementClose(statement);
        }
    }
}
