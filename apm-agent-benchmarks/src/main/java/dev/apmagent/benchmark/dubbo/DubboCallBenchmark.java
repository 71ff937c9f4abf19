package dev.apmagent.benchmark.dubbo;

import dev.apmagent.benchmark.BenchmarkAgent;
import dev.apmagent.benchmark.LoopbackPort;
import dev.apmagent.benchmark.trace.ReleasingReporter;
import dev.apmagent.plugin.dubbo.DubboPlugin;
import dev.apmagent.trace.Reporter;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.apache.dubbo.rpc.model.ModuleModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * What the agent adds to one synchronous Apache Dubbo 3.3 call, consumer and provider together. The provider and the
 * consumer live in the benchmark's JVM, in a Dubbo framework model of their own: dubbo protocol over Netty on a free
 * port, the consumer connected to 127.0.0.1 by a direct URL, no registry, scope {@code remote} on both sides (no
 * {@code injvm} short cut), so every call crosses the loopback socket both ways and runs both filter chains. Each fork
 * is one mode:
 * <ul>
 *   <li>{@code none}: no instrumentation in the JVM, the call alone;</li>
 *   <li>{@code idle}: the Dubbo instrumentation installed and a tracer running, no transaction active on the calling
 *   thread. The consumer's advice finds nothing active and does nothing, but the provider's advice finds nothing
 *   active on its server thread and starts a transaction of its own, as a traced service called by an untraced client
 *   does: this mode is the consumer's no-op plus the provider's transaction;</li>
 *   <li>{@code agent}: each operation is a transaction on the calling thread (start, activate, the call, deactivate,
 *   end), so the consumer creates an exit span and writes {@code traceparent} into the attachments, and the provider
 *   continues that trace in its transaction. Three events per operation go to a reporter that releases them on its
 *   own thread ({@link ReleasingReporter}).</li>
 * </ul>
 * {@code agent - none} is what one traced call costs, consumer span and provider transaction included, plus the
 * caller's transaction; {@code HotPathBenchmark} gives a transaction's own share. Use {@code -prof gc} for B/op: it
 * counts every thread of the JVM (Dubbo's and Netty's threads, the provider's server thread, the releasing thread),
 * divided by the operations of the benchmark thread, so it is the allocation per call on both sides. JMH counts the
 * trial's tear-down (Dubbo's shutdown) into the last measured iteration, a few hundred B/op in every mode: the other
 * iterations in the JSON are the clean figure. The state is shared, so {@code -t N} drives one consumer from N threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 2) // Dubbo's call path takes longer to compile than the agent's; 5 x 2 s still trended
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class DubboCallBenchmark {

    static final String PAYLOAD = "ping-0123456789";

    /** Dubbo and Netty log through JUL once told to; held here so that the levels set on them stay set. */
    private static final Logger dubboLog = Logger.getLogger("org.apache.dubbo");
    private static final Logger nettyLog = Logger.getLogger("io.netty");

    @Param({"none", "idle", "agent"})
    public String mode;

    EchoService echo;
    ReleasingReporter reporter;
    Tracer tracer;
    int port;
    private FrameworkModel dubbo;
    private BenchmarkAgent agent;
    private boolean tracing;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (!mode.equals("none")) {
            agent = BenchmarkAgent.install(new DubboPlugin(), this::reportTo);
            reporter = agent.reporter;
            tracer = agent.tracer;
            tracing = mode.equals("agent");
        }
        startDubbo();
    }

    /** Where the tracer reports; the test puts a recorder in front of the releasing reporter. */
    Reporter reportTo(ReleasingReporter releasing) {
        return releasing;
    }

    private void startDubbo() throws IOException {
        System.setProperty("dubbo.application.logger", "jdk");
        // Dubbo treats 127.x as "no address": it listens on the wildcard address, and without this property it would
        // also rewrite the consumer's 127.0.0.1 into the address of a network interface. With every interface ignored it
        // falls back to the host name, which resolves to loopback, so the connection is 127.0.0.1 to 127.0.0.1 (as in
        // the plugin's tests and the demo). Dubbo then logs a warning with a stack trace each time it scans the
        // interfaces, hence only its errors are shown.
        System.setProperty("dubbo.network.interface.ignored", ".*");
        dubboLog.setLevel(java.util.logging.Level.SEVERE);
        nettyLog.setLevel(java.util.logging.Level.WARNING);
        port = LoopbackPort.free();

        dubbo = new FrameworkModel(); // all of Dubbo's state for this trial, destroyed in tearDown
        DubboBootstrap bootstrap = DubboBootstrap.newInstance(dubbo);
        ModuleModel module = bootstrap.getApplicationModel().getDefaultModule();
        ApplicationConfig application = new ApplicationConfig(bootstrap.getApplicationModel(), "apm-dubbo-benchmark");
        application.setQosEnable(false);
        application.setMetadataServicePort(LoopbackPort.free()); // not Dubbo's default 20880, which may be taken
        application.setShutwait("200"); // nothing is in flight at tear-down; Dubbo's default waits 10 s
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setHost("127.0.0.1");

        ServiceConfig<EchoService> service = new ServiceConfig<>(module);
        service.setInterface(EchoService.class);
        service.setRef(new Echo());
        service.setScope("remote");

        ReferenceConfig<EchoService> reference = new ReferenceConfig<>(module);
        reference.setInterface(EchoService.class);
        reference.setUrl("dubbo://127.0.0.1:" + port);
        reference.setScope("remote"); // never injvm, although the provider is in this JVM
        reference.setTimeout(10_000); // generous: the machine may be busy
        reference.setRetries(0);
        reference.setCheck(false);

        bootstrap.application(application)
                .registry(new RegistryConfig("N/A"))
                .protocol(protocol)
                .service(service, module)
                .reference(reference, module)
                .start();
        echo = reference.get();
    }

    /**
     * Stops Dubbo (its non-daemon threads would keep the fork alive) and the reporter. The instrumentation stays: JMH
     * counts the trial's tear-down into the last measured iteration, and removing it retransforms every loaded class,
     * which allocates tens of MB and would add kilobytes to that iteration's B/op. The fork ends anyway; a JVM that goes
     * on (the test) calls {@link #uninstall} as well.
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        if (dubbo != null) {
            dubbo.destroy(); // consumer, provider, their threads and the server socket
        }
        if (agent != null) {
            agent.stop();
        }
    }

    /** Removes the instrumentation installed by {@link #setUp}, after {@link #tearDown}. */
    void uninstall() {
        if (agent != null) {
            agent.uninstall();
        }
    }

    /** One synchronous call, consumer and provider; in {@code agent} mode inside its own transaction. */
    @Benchmark
    public String call() {
        Transaction t = tracing ? agent.startTransaction() : null;
        try {
            return echo.echo(PAYLOAD);
        } finally {
            if (t != null) {
                agent.endTransaction(t);
            }
        }
    }

    /** The provider: answers with what it got. */
    public static final class Echo implements EchoService {
        @Override
        public String echo(String text) {
            return text;
        }
    }
}
