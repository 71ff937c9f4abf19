package dev.apmagent.plugin.jdbc;

import net.bytebuddy.asm.Advice;

import java.sql.Statement;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code jdbc-statement} on {@code java.sql.Statement} (and so {@code PreparedStatement}, {@code CallableStatement}):
 * spans for the execute methods ({@link StatementSpans}), the SQL of batches, and forgetting a statement's SQL when it
 * is closed ({@link StatementSql}); statement classes get a context field for that SQL. Types are pre-filtered by name
 * ({@code *Statement*}, and DB2's obfuscated {@code com.ibm.db2.jcc.*}).
 */
public final class StatementInstrumentation extends JdbcInstrumentation {

    public StatementInstrumentation() {
        super("jdbc-statement", "java.sql.Statement",
                nameContains("Statement").or(nameStartsWith("com.ibm.db2.jcc.")));
    }

    @Override
    public List<AdviceBinding> advice() {
        return bindings(
                advice(concrete().and(namedOneOf("execute", "executeQuery")).and(takesArgument(0, String.class)),
                        "StatementExecuteAdvice"),
                advice(concrete().and(namedOneOf("executeUpdate", "executeLargeUpdate")).and(takesArgument(0, String.class)),
                        "StatementExecuteUpdateAdvice"),
                advice(concrete().and(namedOneOf("execute", "executeQuery")).and(takesArguments(0)),
                        "PreparedStatementExecuteAdvice"),
                advice(concrete().and(namedOneOf("executeUpdate", "executeLargeUpdate")).and(takesArguments(0)),
                        "PreparedStatementExecuteUpdateAdvice"),
                advice(concrete().and(namedOneOf("executeBatch", "executeLargeBatch")).and(takesArguments(0)),
                        "StatementExecuteBatchAdvice"),
                advice(concrete().and(named("addBatch")).and(takesArguments(String.class)), "StatementAddBatchAdvice"),
                advice(concrete().and(named("close")).and(takesArguments(0)), "StatementCloseAdvice"));
    }

    /** Statements get the context field of {@link StatementSql}'s store. */
    @Override
    public List<String> contextKeyTypes() {
        return Collections.singletonList(StatementSql.KEY_TYPE);
    }

    /** {@code execute(String, ...)}, {@code executeQuery(String)}. */
    public static final class StatementExecuteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static JdbcCall enter(@Advice.This Statement statement, @Advice.Argument(0) String sql) {
            return StatementSpans.enter(statement, sql);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Statement statement, @Advice.Enter JdbcCall call,
                                @Advice.Thrown Throwable thrown) {
            StatementSpans.exit(call, statement, thrown, -1L);
        }
    }

    /** {@code executeUpdate(String, ...)}, {@code executeLargeUpdate(String, ...)}: the update count is rows affected. */
    public static final class StatementExecuteUpdateAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static JdbcCall enter(@Advice.This Statement statement, @Advice.Argument(0) String sql) {
            return StatementSpans.enter(statement, sql);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Statement statement, @Advice.Enter JdbcCall call,
                                @Advice.Return long rows, @Advice.Thrown Throwable thrown) {
            StatementSpans.exit(call, statement, thrown, rows);
        }
    }

    /** {@code execute()}, {@code executeQuery()} of prepared and callable statements: the SQL given at prepare time. */
    public static final class PreparedStatementExecuteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static JdbcCall enter(@Advice.This Statement statement) {
            return StatementSpans.enterPrepared(statement);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Statement statement, @Advice.Enter JdbcCall call,
                                @Advice.Thrown Throwable thrown) {
            StatementSpans.exit(call, statement, thrown, -1L);
        }
    }

    /** {@code executeUpdate()}, {@code executeLargeUpdate()} of prepared and callable statements. */
    public static final class PreparedStatementExecuteUpdateAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static JdbcCall enter(@Advice.This Statement statement) {
            return StatementSpans.enterPrepared(statement);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Statement statement, @Advice.Enter JdbcCall call,
                                @Advice.Return long rows, @Advice.Thrown Throwable thrown) {
            StatementSpans.exit(call, statement, thrown, rows);
        }
    }

    /** {@code executeBatch()}, {@code executeLargeBatch()}: rows affected is the sum of the update counts. */
    public static final class StatementExecuteBatchAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static JdbcCall enter(@Advice.This Statement statement) {
            return StatementSpans.enterBatch(statement);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.This Statement statement, @Advice.Enter JdbcCall call,
                                @Advice.Return Object counts, @Advice.Thrown Throwable thrown) {
            StatementSpans.exitBatch(call, statement, thrown, counts);
        }
    }

    /** {@code addBatch(String)}: the first SQL of a plain statement's batch names the batch span. */
    public static final class StatementAddBatchAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.This Statement statement, @Advice.Argument(0) String sql) {
            StatementSql.onAddBatch(statement, sql);
        }
    }

    /** {@code close()}: the statement's SQL is forgotten at once (weak references never reach the collector). */
    public static final class StatementCloseAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter(@Advice.This Object statement) {
            StatementSql.onStatementClose(statement);
        }
    }
}
