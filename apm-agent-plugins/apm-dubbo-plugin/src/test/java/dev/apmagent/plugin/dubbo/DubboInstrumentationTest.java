package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.AgentScheduler;
import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.ListReporter;
import dev.apmagent.trace.Outcome;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.apache.dubbo.common.Version;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.service.GenericService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import testapp.dubbo.EchoBackend;
import testapp.dubbo.GreetingService;
import testapp.dubbo.MadeUpMethodService;
import testapp.dubbo.GreetingServiceImpl;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The Dubbo scenarios, written once. The module's Surefire executions run this class on Dubbo 2.7, 3.2 and 3.3 (one
 * Dubbo per JVM); each run checks it got the version it was meant for. One provider (dubbo protocol over Netty on a free
 * loopback port, no registry) serves the whole class, and the consumers reference it by a direct URL.
 *
 * <p>The real instrumentation is installed as on attach, after Dubbo has started and served a call: its filter chains
 * are built and {@code MonitorFilter} is loaded and running, so every scenario proves that the hook works on a running
 * application (retransformation of an existing method, nothing added to Dubbo). The agent's scheduler thread runs, as
 * the agent's start-up starts it: the scan for asynchronous invocations that never complete runs there.
 */
class DubboInstrumentationTest {

    private static final long GRACE_MILLIS = 200;
    private static final PluginHealth health = PluginHealth.of("dubbo");

    private static PluginAgent agent;
    private static final List<Object> configs = new ArrayList<>();
    private static GreetingService client;
    private static GreetingService asyncFlagClient;
    private static GreetingService shortTimeoutClient;
    private static GenericService genericClient;
    private static MadeUpMethodService madeUpClient;
    private static int port;

    private ListReporter reporter;
    private Tracer tracer;

    @BeforeAll
    static void startDubbo() throws Exception {
        assumeFalse(DubboUnsupportedVersionTest.unsupportedRun(), "Dubbo version not supported in this execution");
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ApplicationConfig application = new ApplicationConfig("apm-dubbo-test");
        application.setQosEnable(false);
        RegistryConfig registry = new RegistryConfig("N/A");
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setHost("127.0.0.1");

        export(application, registry, protocol, GreetingService.class, new GreetingServiceImpl());
        export(application, registry, protocol, EchoBackend.class, new GreetingServiceImpl.Echo());

        GreetingServiceImpl.backend = refer(application, EchoBackend.class, 3000, false);
        client = refer(application, GreetingService.class, 3000, false);
        asyncFlagClient = refer(application, GreetingService.class, 3000, true);
        shortTimeoutClient = refer(application, GreetingService.class, 300, false);

        ReferenceConfig<GenericService> generic = new ReferenceConfig<>();
        generic.setApplication(application);
        generic.setInterface(GreetingService.class.getName());
        generic.setGeneric("true");
        generic.setUrl("dubbo://127.0.0.1:" + port);
        generic.setTimeout(3000);
        configs.add(generic);
        genericClient = generic.get();

        ReferenceConfig<MadeUpMethodService> madeUp = new ReferenceConfig<>();
        madeUp.setApplication(application);
        madeUp.setInterface(MadeUpMethodService.class);
        madeUp.setUrl("dubbo://127.0.0.1:" + port + "/" + GreetingService.class.getName()); // the provider's service
        madeUp.setTimeout(3000);
        configs.add(madeUp);
        madeUpClient = madeUp.get();

        GlobalTracer.set(null, null);
        assertThat(client.relay("before attach")).isEqualTo("relayed echo before attach"); // chains built and used on both sides
        // Classes Dubbo generated at run time (javassist proxies and wrappers, $Adaptive extensions) have no class file,
        // so the installer's pool-only type descriptions cannot describe them while it scans loaded classes: counted as
        // errors at install, none of them is a type we instrument. What follows must add no error.
        agent = PluginAgent.install(new DubboPlugin());
        AgentScheduler.start();
    }

    private static <T> void export(ApplicationConfig application, RegistryConfig registry, ProtocolConfig protocol, Class<T> type, T ref) {
        ServiceConfig<T> service = new ServiceConfig<>();
        service.setApplication(application);
        service.setRegistry(registry);
        service.setProtocol(protocol);
        service.setInterface(type);
        service.setRef(ref);
        service.export();
        configs.add(service);
    }

    private static <T> T refer(ApplicationConfig application, Class<T> type, int timeout, boolean async) {
        ReferenceConfig<T> reference = new ReferenceConfig<>();
        reference.setApplication(application);
        reference.setInterface(type);
        reference.setUrl("dubbo://127.0.0.1:" + port);
        reference.setTimeout(timeout);
        reference.setAsync(async);
        configs.add(reference);
        return reference.get();
    }

    @AfterAll
    static void stopDubbo() throws InterruptedException {
        if (DubboUnsupportedVersionTest.unsupportedRun()) {
            return;
        }
        AgentScheduler.stop();
        if (agent != null) {
            agent.uninstall();
        }
        for (Object config : configs) {
            if (config instanceof ReferenceConfig) {
                ((ReferenceConfig<?>) config).destroy();
            } else {
                ((ServiceConfig<?>) config).unexport();
            }
        }
        configs.clear();
    }

    @BeforeEach
    void useTracer() {
        Map<String, Object> options = new HashMap<>();
        options.put(DubboPlugin.DUBBO_ASYNC_GRACE.key(), GRACE_MILLIS);
        agent.startTracer(options);
        reporter = agent.reporter();
        tracer = agent.tracer();
    }

    /** Also checks that every event came back to its pool exactly once and none stayed active on the test thread. */
    @AfterEach
    void noAgentFailures() {
        agent.stopTracer();
        assertThat(health.failures()).as("failures inside the plugin").isZero();
        assertThat(agent.errorsSinceInstall()).as("transformation errors after install").isZero();
    }

    @Test
    void runsOnTheDubboVersionOfThisExecution() {
        String expected = System.getProperty("apm.dubbo.expected.version");
        assertThat(expected).as("the surefire execution names its Dubbo version").isNotNull();
        assertThat(Version.getVersion()).isEqualTo(expected);
        assertThat(agent.transformedTypes()).as("MonitorFilter, and only it, was instrumented").isEqualTo(1);
    }

    @Test
    void syncCallIsAnExitSpanContinuedByTheProviderTransaction() {
        Transaction caller = startCaller();
        String answer;
        try {
            answer = client.greet("ann");
        } finally {
            endCaller(caller);
        }

        assertThat(answer).isEqualTo("hello ann");
        Transaction provider = awaitTransaction("GreetingService#greet");
        Span span = awaitSpan("GreetingService#greet");
        assertThat(span.type()).isEqualTo("external");
        assertThat(span.subtype()).isEqualTo("dubbo");
        assertThat(span.isExit()).isTrue();
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(span.context().destination().address().toString()).isEqualTo("127.0.0.1");
        assertThat(span.context().destination().port()).isEqualTo(port);
        assertThat(span.context().destination().serviceResource().toString()).isEqualTo("dubbo");
        assertThat(span.context().serviceTarget().type().toString()).isEqualTo("dubbo");
        assertThat(span.traceContext().parentId()).isEqualTo(caller.traceContext().id());

        assertThat(provider.type()).isEqualTo("request");
        assertThat(provider.result()).isEqualTo("OK");
        assertThat(provider.outcome()).isEqualTo(Outcome.SUCCESS);
        assertSameTrace(provider, span);
        assertThat(provider.traceContext().parentId()).as("the provider's parent is the consumer span").isEqualTo(span.traceContext().id());
        assertThat(provider.isSampled()).isTrue();
    }

    @Test
    void providerWithoutCallerContextStartsItsOwnTraceAndConsumerWithoutActiveEventDoesNothing() {
        assertThat(client.greet("bob")).isEqualTo("hello bob");

        Transaction provider = awaitTransaction("GreetingService#greet");
        assertThat(provider.traceContext().parentId()).isZero();
        assertThat(reporter.spans()).isEmpty();
    }

    @Test
    void exceptionFailsBothSidesAndIsCapturedOnBoth() {
        Transaction caller = startCaller();
        Throwable thrown;
        try {
            thrown = catchThrowable(() -> client.fail("boom"));
        } finally {
            endCaller(caller);
        }

        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        Transaction provider = awaitTransaction("GreetingService#fail");
        Span span = awaitSpan("GreetingService#fail");
        assertThat(provider.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(provider.result()).isEqualTo("Error");
        assertThat(span.outcome()).isEqualTo(Outcome.FAILURE);
        assertSameTrace(provider, span);
        ErrorEvent providerError = awaitError(e -> e.transactionId() == provider.traceContext().id());
        assertThat(providerError.exception()).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        ErrorEvent consumerError = awaitError(e -> e.transactionId() == caller.traceContext().id());
        assertThat(consumerError.exception()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void completableFutureCallEndsWhenTheResultArrives() throws Exception {
        Transaction caller = startCaller();
        CompletableFuture<String> future;
        try {
            future = client.greetAsync("cid");
        } finally {
            endCaller(caller);
        }

        assertThat(future.get(5, TimeUnit.SECONDS)).isEqualTo("async hello cid");
        Span span = awaitSpan("GreetingService#greetAsync");
        Transaction provider = awaitTransaction("GreetingService#greetAsync");
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(provider.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(provider.result()).isEqualTo("OK");
        assertThat(provider.traceContext().parentId()).isEqualTo(span.traceContext().id());
        assertThat(provider.durationNanos()).as("the provider transaction lasts until its future completes")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(span.context().destination().port()).isEqualTo(port);
    }

    @Test
    void asyncReferenceEndsTheSpanWhenTheResultArrives() throws Exception {
        Transaction caller = startCaller();
        Future<Object> future;
        try {
            asyncFlagClient.greet("dora"); // returns at once: null, or the value if the response was already there (2.7)
            future = RpcContext.getContext().getFuture();
        } finally {
            endCaller(caller);
        }

        assertThat(future.get(5, TimeUnit.SECONDS)).isEqualTo("hello dora");
        Span span = awaitSpan("GreetingService#greet");
        Transaction provider = awaitTransaction("GreetingService#greet");
        assertThat(span.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(provider.traceContext().parentId()).isEqualTo(span.traceContext().id());
    }

    @Test
    void neverCompletingFutureEndsAtTheTimeoutPlusGraceOnBothSides() {
        long expiredBefore = health.counter("async_expired").sum();
        Transaction caller = startCaller();
        CompletableFuture<String> future;
        try {
            future = shortTimeoutClient.never("eve");
        } finally {
            endCaller(caller);
        }

        Throwable failure = catchThrowable(() -> future.get(5, TimeUnit.SECONDS));
        assertThat(failure).isInstanceOf(ExecutionException.class);
        Span span = awaitSpan("GreetingService#never");
        assertThat(span.outcome()).as("Dubbo's own timeout completes the consumer future").isEqualTo(Outcome.FAILURE);
        Transaction provider = awaitTransaction("GreetingService#never");
        assertThat(provider.outcome()).isEqualTo(Outcome.FAILURE);
        assertThat(provider.result()).isEqualTo("Timeout");
        assertThat(provider.durationNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300 + GRACE_MILLIS));
        assertThat(health.counter("async_expired").sum()).as("ended by the scan on the agent's scheduler thread")
                .isGreaterThan(expiredBefore);
    }

    @Test
    void genericInvocationIsNamedByTheRealInterfaceAndMethod() {
        Transaction caller = startCaller();
        Object answer;
        try {
            answer = genericClient.$invoke("greet", new String[]{String.class.getName()}, new Object[]{"gen"});
        } finally {
            endCaller(caller);
        }

        assertThat(answer).isEqualTo("hello gen");
        Span span = awaitSpan("GreetingService#greet");
        Transaction provider = awaitTransaction("GreetingService#greet");
        assertThat(provider.traceContext().parentId()).isEqualTo(span.traceContext().id());
    }

    /**
     * The method of a provider's transaction is the caller's choice until the provider's interface is found to have
     * it: a made-up method (Dubbo 2.7 passes it down the provider's filter chain and answers "not found method") is
     * named {@code <other>}, so callers cannot create names. Dubbo 3 refuses a call whose interface differs from the
     * provider's while decoding it, before any filter: no transaction at all.
     */
    @Test
    void aMethodTheProvidersInterfaceDoesNotHaveIsNamedOther() throws InterruptedException {
        assertThat(catchThrowable(() -> madeUpClient.madeUpMethodNumber7("x"))).as("Dubbo refuses the call").isNotNull();

        if (Version.getVersion().startsWith("2.")) {
            Transaction provider = awaitTransaction("GreetingService#" + DubboNames.OTHER_METHOD);
            assertThat(provider.outcome()).isEqualTo(Outcome.FAILURE);
        } else {
            Thread.sleep(GRACE_MILLIS);
            assertThat(reporter.transactions()).as("Dubbo 3 refuses it before the provider's filters").isEmpty();
        }
        assertThat(names(reporter.transactions())).noneMatch(n -> n.contains("madeUp"));
    }

    @Test
    void providerCallingAnotherServiceSendsItsOwnContextNotTheInboundOne() {
        Transaction caller = startCaller();
        String answer;
        try {
            answer = client.relay("fay");
        } finally {
            endCaller(caller);
        }

        assertThat(answer).isEqualTo("relayed echo fay");
        Span outer = awaitSpan("GreetingService#relay");
        Transaction relay = awaitTransaction("GreetingService#relay");
        Span inner = awaitSpan("EchoBackend#echo");
        Transaction echo = awaitTransaction("EchoBackend#echo");
        assertThat(relay.traceContext().parentId()).isEqualTo(outer.traceContext().id());
        assertThat(inner.traceContext().parentId()).isEqualTo(relay.traceContext().id());
        assertThat(echo.traceContext().parentId()).as("the inbound traceparent must not overwrite the outbound one")
                .isEqualTo(inner.traceContext().id());
        assertSameTrace(echo, outer);
    }

    @Test
    void unsampledCallerPropagatesItsDecisionWithoutASpan() {
        Transaction caller = tracer.startTransaction(0x0af7651916cd43ddL, 0x8448eb211c80319cL, 0xb7ad6b7169203331L, 0, Double.NaN, null);
        tracer.activate(caller);
        try {
            assertThat(client.greet("gus")).isEqualTo("hello gus");
        } finally {
            endCaller(caller);
        }

        Transaction provider = awaitTransaction("GreetingService#greet");
        assertThat(provider.isSampled()).isFalse();
        assertSameTrace(provider, caller);
        assertThat(provider.traceContext().parentId()).isEqualTo(caller.traceContext().id());
        assertThat(reporter.spans()).isEmpty();
    }

    @Test
    void resultsAreTheSameWithAndWithoutTracing() throws Exception {
        Transaction caller = startCaller();
        String traced;
        String tracedAsync;
        Throwable tracedFailure;
        try {
            traced = client.greet("same");
            tracedAsync = client.greetAsync("same").get(5, TimeUnit.SECONDS);
            tracedFailure = catchThrowable(() -> client.fail("same"));
        } finally {
            endCaller(caller);
        }
        awaitTransaction("GreetingService#fail");
        GlobalTracer.set(null, null);

        assertThat(client.greet("same")).isEqualTo(traced);
        assertThat(client.greetAsync("same").get(5, TimeUnit.SECONDS)).isEqualTo(tracedAsync);
        assertThatThrownBy(() -> client.fail("same")).isInstanceOf(tracedFailure.getClass()).hasMessage(tracedFailure.getMessage());
    }

    // ------------------------------------------------------------------ helpers

    private Transaction startCaller() {
        Transaction caller = tracer.startRootTransaction();
        caller.setName("caller");
        tracer.activate(caller);
        return caller;
    }

    private void endCaller(Transaction caller) {
        tracer.deactivate(caller);
        caller.end();
    }

    private static void assertSameTrace(AbstractSpan a, AbstractSpan b) {
        assertThat(a.traceContext().traceIdHigh()).isEqualTo(b.traceContext().traceIdHigh());
        assertThat(a.traceContext().traceIdLow()).isEqualTo(b.traceContext().traceIdLow());
    }

    private Transaction awaitTransaction(String name) {
        for (int i = 0; i < 500; i++) {
            for (Transaction t : reporter.transactions()) {
                if (t.name().toString().equals(name)) {
                    return t;
                }
            }
            sleep();
        }
        throw new AssertionError("no transaction " + name + " among " + names(reporter.transactions()));
    }

    private Span awaitSpan(String name) {
        for (int i = 0; i < 500; i++) {
            for (Span s : reporter.spans()) {
                if (s.name().toString().equals(name)) {
                    return s;
                }
            }
            sleep();
        }
        throw new AssertionError("no span " + name + " among " + names(reporter.spans()));
    }

    private ErrorEvent awaitError(Predicate<ErrorEvent> condition) {
        for (int i = 0; i < 500; i++) {
            for (ErrorEvent e : reporter.errors()) {
                if (condition.test(e)) {
                    return e;
                }
            }
            sleep();
        }
        throw new AssertionError("no matching error among " + reporter.errors().size());
    }

    private static List<String> names(List<? extends AbstractSpan> events) {
        List<String> names = new ArrayList<>();
        for (AbstractSpan e : events) {
            names.add(e.name().toString());
        }
        return names;
    }

    private static void sleep() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
