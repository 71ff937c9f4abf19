package dev.apmagent.plugin.concurrent;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;

import java.util.Arrays;
import java.util.List;

/**
 * Trace context across threads: a task handed to a thread pool, a fork-join pool, a {@code CompletableFuture} async
 * stage or a virtual thread (and, experimental, a new {@code Thread}) while a transaction or span is active runs with
 * it active. JDK classes, reached through the bootstrap bridge; one mechanism, {@link TaskContext}. See the README.
 */
public final class ConcurrentPlugin implements Plugin {

    @Override
    public String name() {
        return "concurrent";
    }

    @Override
    public List<Instrumentation> instrumentations() {
        return Arrays.<Instrumentation>asList(new ExecutorInstrumentation(), new ScheduledExecutorInstrumentation(),
                new ForkJoinInstrumentation(), new CompletableFutureInstrumentation(), new VirtualThreadInstrumentation(),
                new ThreadStartInstrumentation());
    }
}
