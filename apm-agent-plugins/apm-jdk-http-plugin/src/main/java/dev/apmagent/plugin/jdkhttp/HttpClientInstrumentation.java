package dev.apmagent.plugin.jdkhttp;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * {@code jdk-httpclient}: {@code java.net.http.HttpClient} (JDK 11 and later) as the JDK implements it,
 * {@code jdk.internal.net.http.HttpClientImpl} (what {@code HttpClient.newHttpClient()} and the builder return
 * delegates to it), advised in its public {@code send(request, handler)} and {@code sendAsync(request, handler[,
 * pushPromiseHandler])}. Its requests are immutable, so the enter advice replaces the request argument with a copy
 * that carries the trace headers ({@link Bridge#replacement}); everything else of the request is copied as it is.
 */
public final class HttpClientInstrumentation extends Instrumentation {

    static final String IMPL = "jdk.internal.net.http.HttpClientImpl";
    private static final String ADVICE = "dev.apmagent.plugin.jdkhttp.HttpClientInstrumentation$";
    private static final String HANDLERS = "dev.apmagent.plugin.jdkhttp.HttpClientHandlers$";

    @Override
    public String name() {
        return "jdk-httpclient";
    }

    @Override
    public Collection<String> groupNames() {
        return Collections.singletonList(JdkHttpPlugin.GROUP);
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
        return named(IMPL);
    }

    @Override
    public ElementMatcher<? super TypeDescription> typeMatcher() {
        return named(IMPL);
    }

    @Override
    public List<AdviceBinding> advice() {
        return Arrays.asList(
                new AdviceBinding(isPublic().and(named("send")).and(takesArguments(2)), ADVICE + "SendAdvice"),
                new AdviceBinding(isPublic().and(named("sendAsync")).and(takesArguments(2).or(takesArguments(3))),
                        ADVICE + "SendAsyncAdvice"));
    }

    @Override
    public List<String> bridgeHandlers() {
        return Arrays.asList(HANDLERS + "Send", HANDLERS + "SendAsync");
    }

    /** {@code send(request, handler)}: the span ends when it returns the response (or throws). */
    public static final class SendAdvice {
        private SendAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object client,
                                   @Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object request) {
            Object state = Bridge.enter(Bridge.HTTPCLIENT_SEND, client, request, null);
            request = Bridge.replacement(Bridge.HTTPCLIENT_SEND, state, request);
            return state;
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object state, @Advice.This Object client,
                                @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object response, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.HTTPCLIENT_SEND, state, client, null, response, thrown);
        }
    }

    /** {@code sendAsync(request, handler[, pushPromiseHandler])}: the span ends when the returned future completes. */
    public static final class SendAsyncAdvice {
        private SendAsyncAdvice() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static Object enter(@Advice.This Object client,
                                   @Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object request) {
            Object state = Bridge.enter(Bridge.HTTPCLIENT_SEND_ASYNC, client, request, null);
            request = Bridge.replacement(Bridge.HTTPCLIENT_SEND_ASYNC, state, request);
            return state;
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Enter Object state, @Advice.This Object client,
                                @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object future, @Advice.Thrown Throwable thrown) {
            Bridge.exit(Bridge.HTTPCLIENT_SEND_ASYNC, state, client, null, future, thrown);
        }
    }
}
