package dev.apmagent.plugin.dubbo;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.Collections;
import java.util.List;

/** Apache Dubbo RPC: exit spans for outgoing invocations, transactions for incoming ones. */
public final class DubboPlugin implements Plugin {

    @Override
    public String name() {
        return "dubbo";
    }

    @Override
    public List<Instrumentation> instrumentations() {
        return Collections.<Instrumentation>singletonList(new MonitorFilterInstrumentation());
    }
}
