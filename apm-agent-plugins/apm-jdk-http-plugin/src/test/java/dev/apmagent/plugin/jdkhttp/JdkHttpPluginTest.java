package dev.apmagent.plugin.jdkhttp;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The names users put in {@code disable_instrumentations} stay what the README says (and what the Elastic agent
 * calls them), the plugin is registered for discovery, and every advice and bridge handler named by string exists:
 * advice nested in its instrumentation, handlers with the public no-argument constructor the agent calls, on distinct
 * hooks.
 */
class JdkHttpPluginTest {

    @Test
    void namesGroupsAdviceAndHandlers() throws Exception {
        JdkHttpPlugin plugin = new JdkHttpPlugin();
        assertEquals("jdk-http", plugin.name());
        List<String> names = new ArrayList<>();
        List<Integer> hooks = new ArrayList<>();
        for (Instrumentation instrumentation : plugin.instrumentations()) {
            names.add(instrumentation.name());
            assertEquals(List.of("http-client"), new ArrayList<>(instrumentation.groupNames()));
            for (Instrumentation.AdviceBinding binding : instrumentation.advice()) {
                Class<?> advice = Class.forName(binding.adviceClassName(), false, getClass().getClassLoader());
                assertEquals(instrumentation.getClass(), advice.getEnclosingClass(), binding.adviceClassName());
            }
            for (String handler : instrumentation.bridgeHandlers()) {
                BridgeHandler h = (BridgeHandler) Class.forName(handler).getConstructor().newInstance();
                assertTrue(h.hook() >= Bridge.URLCONNECTION_CONNECT, handler + ": the HTTP clients' hooks come after the thread pools'");
                assertTrue(!hooks.contains(h.hook()), handler + ": one handler per hook");
                hooks.add(h.hook());
            }
        }
        assertEquals(List.of("urlconnection", "jdk-httpclient"), names);
        assertEquals(7, hooks.size());
        boolean registered = false;
        for (Plugin p : ServiceLoader.load(Plugin.class)) {
            registered |= p instanceof JdkHttpPlugin;
        }
        assertTrue(registered, "META-INF/services names the plugin");
    }
}
