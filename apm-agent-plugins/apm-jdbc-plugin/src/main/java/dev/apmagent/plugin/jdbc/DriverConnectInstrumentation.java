package dev.apmagent.plugin.jdbc;

import net.bytebuddy.asm.Advice;

import java.sql.Connection;
import java.sql.Driver;
import java.util.List;
import java.util.Properties;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code jdbc-driver-connect}: spans with action {@code connect} for {@code Driver.connect(String, Properties)}, which
 * also keeps the URL of every physical connection (even outside transactions): that is how statement spans learn
 * vendor, address and database without a round trip; without it they fall back to one {@code getMetaData().getURL()}
 * per physical connection ({@link ConnectionSpans}). In group {@code jdbc-connection} with
 * {@link DataSourceGetConnectionInstrumentation}, the name both had before they were split. Pre-filter: {@code *Driver*},
 * SQLite's {@code org.sqlite.JDBC}, DB2's obfuscated {@code com.ibm.db2.jcc.*}.
 */
public final class DriverConnectInstrumentation extends JdbcInstrumentation {

    public DriverConnectInstrumentation() {
        super("jdbc-driver-connect", "java.sql.Driver",
                nameContains("Driver").or(named("org.sqlite.JDBC")).or(nameStartsWith("com.ibm.db2.jcc.")), "jdbc-connection");
    }

    @Override
    public List<AdviceBinding> advice() {
        return bindings(advice(concrete().and(named("connect")).and(takesArguments(2)).and(takesArgument(0, String.class)),
                "DriverConnectAdvice"));
    }

    /** {@code Driver.connect(String url, Properties info)}. */
    public static final class DriverConnectAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static JdbcCall enter(@Advice.This Driver driver, @Advice.Argument(0) String url) {
            return ConnectionSpans.enterDriverConnect(driver, url);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter JdbcCall call, @Advice.Argument(0) String url,
                                @Advice.Argument(1) Properties info, @Advice.Return Connection connection,
                                @Advice.Thrown Throwable thrown) {
            ConnectionSpans.exitDriverConnect(call, url, info, connection, thrown);
        }
    }
}
