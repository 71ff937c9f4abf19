package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.Instrumentation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The name users put in {@code disable_instrumentations} and its groups stay what they are (README, docs), and the
 * advice the instrumentation names by string exists, nested in it.
 */
class DubboPluginTest {

    @Test
    void oneInstrumentationNamedDubboHoldsItsAdvice() throws ClassNotFoundException {
        DubboPlugin plugin = new DubboPlugin();
        assertThat(plugin.name()).isEqualTo("dubbo");
        assertThat(plugin.instrumentations()).hasSize(1);
        Instrumentation only = plugin.instrumentations().get(0);
        assertThat(only).isInstanceOf(DubboInstrumentation.class);
        assertThat(only.name()).isEqualTo("dubbo");
        assertThat(only.groupNames()).containsExactly("dubbo", "apache-dubbo");
        Class<?> advice = Class.forName(only.advice().get(0).adviceClassName(), false, getClass().getClassLoader());
        assertThat(advice.getEnclosingClass()).isEqualTo(DubboInstrumentation.class);
        assertThat(advice.getSimpleName()).isEqualTo("MonitorFilterInvokeAdvice");
    }
}
