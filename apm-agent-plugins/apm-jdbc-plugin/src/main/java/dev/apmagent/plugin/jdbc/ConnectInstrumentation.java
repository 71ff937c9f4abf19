package dev.apmagent.plugin.jdbc;

import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.sql.Connection;
import java.sql.Driver;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code jdbc-connection}: spans with action {@code connect} for {@code Driver.connect(String, Properties)} and
 * {@code DataSource.getConnection()}/{@code getConnection(String, String)}. {@code Driver.connect} also records the
 * URL of every physical connection (even outside transactions), which is how statement spans learn vendor, address and
 * database without a round trip; with this instrumentation disabled they fall back to one
 * {@code getMetaData().getURL()} per physical connection. Pre-filters: {@code *Driver*} (and SQLite's
 * {@code org.sqlite.JDBC}), {@code *DataSource*}.
 */
final class ConnectInstrumentation {

    static final String NAME = "jdbc-connection";

    private static final String ADVICE = "dev.apmagent.plugin.jdbc.ConnectInstrumentation$";

    private ConnectInstrumentation() {
    }

    static List<Instrumentation> all() {
        ElementMatcher.Junction<MethodDescription> concrete = isPublic().and(not(isAbstract())).and(not(isBridge()));
        return Arrays.<Instrumentation>asList(
                new JdbcInstrumentation(NAME, nameContains("Driver").or(named("org.sqlite.JDBC"))
                        .or(nameStartsWith("com.ibm.db2.jcc.")), "java.sql.Driver",
                        new Instrumentation.AdviceBinding(concrete.and(named("connect")).and(takesArguments(2))
                                .and(takesArgument(0, String.class)), ADVICE + "DriverConnectAdvice")),
                new JdbcInstrumentation(NAME, nameContains("DataSource"), "javax.sql.DataSource",
                        new Instrumentation.AdviceBinding(concrete.and(named("getConnection"))
                                .and(takesArguments(0).or(takesArguments(String.class, String.class))), ADVICE + "GetConnectionAdvice")));
    }

    /** {@code Driver.connect(String url, Properties info)}. */
    public static final class DriverConnectAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object onEnter(@Advice.This Driver driver, @Advice.Argument(0) String url) {
            return JdbcHelper.enterDriverConnect(driver, url);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void onExit(@Advice.Enter Object state, @Advice.Argument(0) String url,
                                  @Advice.Argument(1) Properties info, @Advice.Return Connection connection,
                                  @Advice.Thrown Throwable thrown) {
            JdbcHelper.exitDriverConnect(state, url, info, connection, thrown);
        }
    }

    /** {@code DataSource.getConnection()} and {@code getConnection(String, String)}. */
    public static final class GetConnectionAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object onEnter(@Advice.This Object dataSource) {
            return JdbcHelper.enterGetConnection(dataSource);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void onExit(@Advice.Enter Object state, @Advice.Return Connection connection,
                                  @Advice.Thrown Throwable thrown) {
            JdbcHelper.exitGetConnection(state, connection, thrown);
        }
    }
}
