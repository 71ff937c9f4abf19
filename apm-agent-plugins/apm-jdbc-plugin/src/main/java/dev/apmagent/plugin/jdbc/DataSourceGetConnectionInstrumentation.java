package dev.apmagent.plugin.jdbc;

import net.bytebuddy.asm.Advice;

import java.sql.Connection;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code jdbc-data-source-get-connection}: spans with action {@code connect} for {@code DataSource.getConnection()} and
 * {@code getConnection(String, String)} ({@link ConnectionSpans}). In group {@code jdbc-connection} with
 * {@link DriverConnectInstrumentation}, the name both had before they were split. Pre-filter: {@code *DataSource*}.
 */
public final class DataSourceGetConnectionInstrumentation extends JdbcInstrumentation {

    public DataSourceGetConnectionInstrumentation() {
        super("jdbc-data-source-get-connection", "javax.sql.DataSource",
                nameContains("DataSource"), "jdbc-connection");
    }

    @Override
    public List<AdviceBinding> advice() {
        return bindings(advice(concrete().and(named("getConnection"))
                .and(takesArguments(0).or(takesArguments(String.class, String.class))),
                "DataSourceGetConnectionAdvice"));
    }

    /** {@code DataSource.getConnection()} and {@code getConnection(String, String)}. */
    public static final class DataSourceGetConnectionAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static JdbcCall enter(@Advice.This Object dataSource) {
            return ConnectionSpans.enterGetConnection(dataSource);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter JdbcCall call, @Advice.This Object dataSource,
                                @Advice.Return Connection connection, @Advice.Thrown Throwable thrown) {
            ConnectionSpans.exitGetConnection(call, dataSource, connection, thrown);
        }
    }
}
