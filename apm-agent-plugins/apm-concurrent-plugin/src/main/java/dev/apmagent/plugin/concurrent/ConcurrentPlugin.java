package dev.apmagent.plugin.concurrent;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.Collections;
import java.util.List;

/**
 * Trace context across {@code java.util.concurrent} thread pools: a task handed to a pool while a transaction or span
 * is active runs with it active. JDK classes, reached through the bootstrap bridge. See the module's README.
 */
public final class ConcurrentPlugin implements Plugin {

    @Override
    public String name() {
        return "concurrent";
    }

    @Override
    public List<Instrumentation> instrumentations() {
        return Collections.<Instrumentation>singletonList(new ExecutorInstrumentation());
    }
}
