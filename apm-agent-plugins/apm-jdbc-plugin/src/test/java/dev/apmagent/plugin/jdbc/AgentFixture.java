package dev.apmagent.plugin.jdbc;

import dev.apmagent.instrument.InstrumentationInstaller;
import dev.apmagent.instrument.InstrumentationSelection;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.GlobalTracer;
import dev.apmagent.trace.ListReporter;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.TestTracer;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;
import net.bytebuddy.agent.ByteBuddyAgent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real JDBC instrumentation installed in this JVM (as a runtime attach would) and a {@link TestTracer} (bookkeeping
 * pools, a {@link ListReporter}) set as the {@link GlobalTracer}.
 */
final class AgentFixture {

    private InstrumentationInstaller.Installed installed;
    private TestTracer testTracer;
    ListReporter reporter;
    Tracer tracer;

    /** Installs the plugin's instrumentations minus those {@code disableInstrumentations} names. */
    void install(String... disableInstrumentations) {
        Plugin plugin = new JdbcPlugin();
        List<Instrumentation> selected = new InstrumentationSelection(Collections.<String>emptyList(),
                java.util.Arrays.asList(disableInstrumentations)).select(Collections.singletonList(plugin));
        installed = InstrumentationInstaller.install(ByteBuddyAgent.install(), selected, JdbcPlugin.class.getClassLoader(), true);
        assertEquals(0, installed.errors(), "transformation errors");
    }

    void uninstall() {
        GlobalTracer.set(null);
        if (installed != null) {
            installed.uninstall(ByteBuddyAgent.install());
            installed = null;
        }
    }

    long transformedTypes() {
        return installed.transformedTypes();
    }

    void startTracer(Map<String, Object> options) {
        testTracer = TestTracer.create(options);
        reporter = testTracer.reporter();
        tracer = testTracer.tracer();
        GlobalTracer.set(tracer);
    }

    /** Stops the tracer and checks nothing leaked: empty active stack, every pooled object returned once. */
    void stopTracer() {
        GlobalTracer.set(null);
        if (tracer == null) {
            return;
        }
        testTracer.verifyAndReset();
        assertEquals(0, tracer.poolConflicts(), "pool conflicts");
        assertEquals(0, tracer.deactivationMismatches(), "deactivation mismatches");
        tracer = null;
    }

    /** Runs {@code work} in a new, ended, transaction and returns its result. */
    <T> T inTransaction(Callable<T> work) throws Exception {
        Transaction t = tracer.startRootTransaction();
        t.setName("test");
        t.setType("request");
        tracer.activate(t);
        try {
            return work.call();
        } finally {
            tracer.deactivate(t);
            t.end();
        }
    }

    List<Span> spans() {
        return reporter.spans();
    }

    Span onlySpan() {
        List<Span> spans = spans();
        assertEquals(1, spans.size(), () -> "spans: " + describe(spans));
        return spans.get(0);
    }

    static String describe(List<Span> spans) {
        List<String> out = new ArrayList<>();
        for (Span s : spans) {
            out.add(s.name() + " [" + s.type() + "/" + s.subtype() + "/" + s.action() + "]");
        }
        return out.toString();
    }

    static void assertChildOf(AbstractSpan parent, Span span) {
        assertEquals(parent.traceContext().id(), span.traceContext().parentId(), "parent id");
        assertTrue(span.isEnded(), "ended");
    }
}
