package dev.apmagent.plugin.jdkhttp;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code urlconnection}: {@code java.net.HttpURLConnection} as the JDK implements it,
 * {@code sun.net.www.protocol.http.HttpURLConnection} (HTTPS too: {@code HttpsURLConnectionImpl} delegates every call
 * to one), advised in {@code connect()}, {@code getOutputStream()}, {@code getInputStream()}, {@code disconnect()} and
 * {@code java.net.HttpURLConnection.getResponseCode()}. One request is several of these calls, in any order, each
 * possibly more than once, and one calls another inside ({@code getResponseCode} calls {@code getInputStream}, which
 * calls {@code connect}): {@link UrlConnectionHandlers} says what each does. The advice reads two fields of the
 * connection, {@code connected} (headers can only be added before) and {@code responseCode} (so nothing of the
 * connection is called again to learn the status), and passes them through the bootstrap bridge: the advised classes
 * belong to the bootstrap loader, which cannot see the agent.
 */
public final class UrlConnectionInstrumentation extends Instrumentation {

    static final String IMPL = "sun.net.www.protocol.http.HttpURLConnection";
    static final String API = "java.net.HttpURLConnection";
    private static final String ADVICE = "dev.apmagent.plugin.jdkhttp.UrlConnectionInstrumentation$";
    private static final String HANDLERS = "dev.apmagent.plugin.jdkhttp.UrlConnectionHandlers$";

    @Override
    public String name() {
        return "urlconnection";
    }

    @Override
    public Collection<String> groupNames() {
        return Collections.singletonList(JdkHttpPlugin.GROUP);
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(IMPL).or(named(API));
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(IMPL).or(named(API));
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(impl("connect"), ADVICE + "ConnectAdvice"),
                new AdviceBinding(impl("getOutputStream"), ADVICE + "OutputAdvice"),
                new AdviceBinding(impl("getInputStream"), ADVICE + "InputAdvice"),
                new AdviceBinding(impl("disconnect"), ADVICE + "DisconnectAdvice"),
                new AdviceBinding(isDeclaredBy(named(API)).and(named("getResponseCode")).and(takesArguments(0)),
                        ADVICE + "ResponseCodeAdvice"));
    }

    private static ElementMatcher<? super MethodDescription> impl(String method) {
        return isDeclaredBy(named(IMPL)).and(named(method)).and(takesArguments(0));
    }

    @Override
    public List<String> bridgeHandlers() {
        return Arrays.asList(HANDLERS + "Connect", HANDLERS + "Output", HANDLERS + "Input", HANDLERS + "ResponseCode",
                HANDLERS + "Disconnect");
    }

    /** {@code connect()}. */
    public static final class ConnectAdvice {
        private ConnectAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object connection, @Advice.FieldValue("connected") boolean connected) {
            return Bridge.enter(Bridge.URLCONNECTION_CONNECT, connection, Boolean.valueOf(connected), null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object state, @Advice.This Object connection,
                                @Advice.FieldValue("responseCode") int responseCode, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.URLCONNECTION_CONNECT, state, connection, state == null ? null : Integer.valueOf(responseCode), null, thrown);
        }
    }

    /** {@code getOutputStream()}: connects and sends the request headers. */
    public static final class OutputAdvice {
        private OutputAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object connection, @Advice.FieldValue("connected") boolean connected) {
            return Bridge.enter(Bridge.URLCONNECTION_OUTPUT, connection, Boolean.valueOf(connected), null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object state, @Advice.This Object connection,
                                @Advice.FieldValue("responseCode") int responseCode, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.URLCONNECTION_OUTPUT, state, connection, state == null ? null : Integer.valueOf(responseCode), null, thrown);
        }
    }

    /** {@code getInputStream()}: reads the response (status and headers). */
    public static final class InputAdvice {
        private InputAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object connection, @Advice.FieldValue("connected") boolean connected) {
            return Bridge.enter(Bridge.URLCONNECTION_INPUT, connection, Boolean.valueOf(connected), null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object state, @Advice.This Object connection,
                                @Advice.FieldValue("responseCode") int responseCode, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.URLCONNECTION_INPUT, state, connection, state == null ? null : Integer.valueOf(responseCode), null, thrown);
        }
    }

    /** {@code getResponseCode()} (of {@code java.net.HttpURLConnection}): reads the response through getInputStream. */
    public static final class ResponseCodeAdvice {
        private ResponseCodeAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object connection, @Advice.FieldValue("connected") boolean connected) {
            return Bridge.enter(Bridge.URLCONNECTION_RESPONSE_CODE, connection, Boolean.valueOf(connected), null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object state, @Advice.This Object connection,
                                @Advice.FieldValue("responseCode") int responseCode, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.URLCONNECTION_RESPONSE_CODE, state, connection, state == null ? null : Integer.valueOf(responseCode), null, thrown);
        }
    }

    /** {@code disconnect()}: the application is done with the connection, read or not. */
    public static final class DisconnectAdvice {
        private DisconnectAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object connection, @Advice.FieldValue("connected") boolean connected) {
            return Bridge.enter(Bridge.URLCONNECTION_DISCONNECT, connection, Boolean.valueOf(connected), null);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object state, @Advice.This Object connection,
                                @Advice.FieldValue("responseCode") int responseCode, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.URLCONNECTION_DISCONNECT, state, connection, state == null ? null : Integer.valueOf(responseCode), null, thrown);
        }
    }
}
