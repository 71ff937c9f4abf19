package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.PluginHealth;
import dev.apmagent.testing.PluginAgent;
import dev.apmagent.trace.ListReporter;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import org.apache.dubbo.common.Version;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.junit.jupiter.api.Test;
import testapp.dubbo.GreetingService;
import testapp.dubbo.GreetingServiceImpl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Dubbo 2.7.0-2.7.2 (no {@code Result.whenCompleteWithContext}) must stay uninstrumented and unharmed: the method
 * type matcher rejects {@code MonitorFilter}, calls behave as without the agent and nothing is reported. Runs only in
 * the module's {@code dubbo-2.7.2-unsupported} execution.
 */
class DubboUnsupportedVersionTest {

    static boolean unsupportedRun() {
        return Boolean.getBoolean("apm.dubbo.unsupported");
    }

    @Test
    void unsupportedVersionStaysUninstrumentedAndUnharmed() throws Exception {
        assumeTrue(unsupportedRun(), "only in the execution with an unsupported Dubbo");
        assertThat(Version.getVersion()).isEqualTo(System.getProperty("apm.dubbo.expected.version"));
        PluginAgent agent = PluginAgent.install(new DubboPlugin());
        agent.startTracer();
        ListReporter reporter = agent.reporter();
        Tracer tracer = agent.tracer();
        ServiceConfig<GreetingService> service = new ServiceConfig<>();
        ReferenceConfig<GreetingService> reference = new ReferenceConfig<>();
        try {
            // in-JVM protocol: this Dubbo predates the option that keeps it on loopback, and MonitorFilter is in the
            // chain of every protocol
            ApplicationConfig application = new ApplicationConfig("apm-dubbo-unsupported");
            application.setQosEnable(false);
            service.setApplication(application);
            service.setRegistry(new RegistryConfig("N/A"));
            service.setProtocol(new ProtocolConfig("injvm"));
            service.setInterface(GreetingService.class);
            service.setRef(new GreetingServiceImpl());
            service.export();
            reference.setApplication(application);
            reference.setInterface(GreetingService.class);
            reference.setScope("local");
            reference.setRegistry(new RegistryConfig("N/A"));
            reference.setTimeout(3000);
            GreetingService client = reference.get();

            Transaction caller = tracer.startRootTransaction();
            tracer.activate(caller);
            String answer;
            Throwable failure;
            try {
                answer = client.greet("old");
                failure = catchThrowable(() -> client.fail("old"));
            } finally {
                tracer.deactivate(caller);
                caller.end();
            }

            assertThat(answer).isEqualTo("hello old");
            assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessage("old");
            assertThat(agent.transformedTypes()).as("nothing instrumented").isZero();
            Thread.sleep(200);
            assertThat(reporter.spans()).isEmpty();
            assertThat(reporter.transactions()).hasSize(1); // the test's own caller
            assertThat(PluginHealth.of("dubbo").failures()).isZero();
        } finally {
            reference.destroy();
            service.unexport();
            agent.stopTracer();
            agent.uninstall();
        }
    }
}
