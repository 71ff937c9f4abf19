package dev.apmagent.testing;

import dev.apmagent.config.Config;
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
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one way a plugin's in-JVM tests install the agent: the plugin's real instrumentations, installed into the test's
 * own JVM as a runtime attach installs them (classes already loaded are retransformed), and a {@link TestTracer}
 * (bookkeeping pools, a {@link ListReporter}) set as the {@link GlobalTracer} with the test's options. Tests of the
 * real agent jar in a forked JVM live in {@code integration-tests}.
 *
 * <pre>{@code
 * static final PluginAgent agent = PluginAgent.install(new JdbcPlugin());
 * @BeforeEach void start() { agent.startTracer(); }
 * @AfterEach void stop() { agent.stopTracer(); }   // fails on a leaked activation or pooled object
 * }</pre>
 */
public final class PluginAgent {

    private InstrumentationInstaller.Installed installed;
    private TestTracer testTracer;
    private long errorsAtInstall;

    private PluginAgent() {
    }

    /** Installs {@code plugin}'s instrumentations (the experimental ones too), minus those {@code disabledInstrumentations} names. */
    public static PluginAgent install(Plugin plugin, String... disabledInstrumentations) {
        PluginAgent agent = new PluginAgent();
        List<Instrumentation> selected = new InstrumentationSelection(Collections.<String>emptyList(),
                Arrays.asList(disabledInstrumentations), true).select(Collections.singletonList(plugin));
        agent.installed = InstrumentationInstaller.install(ByteBuddyAgent.install(), selected, plugin.getClass().getClassLoader(), true);
        agent.errorsAtInstall = agent.installed.errors();
        return agent;
    }

    /** Removes the instrumentation again (retransforming the classes back) and the tracer. */
    public void uninstall() {
        GlobalTracer.set(null, null);
        if (installed != null) {
            installed.uninstall(ByteBuddyAgent.install());
            installed = null;
        }
    }

    /** Types transformed so far, at installation and since. */
    public long transformedTypes() {
        return installed.transformedTypes();
    }

    /** Transformation errors so far. */
    public long errors() {
        return installed.errors();
    }

    /** Transformation errors since installation. */
    public long errorsSinceInstall() {
        return installed.errors() - errorsAtInstall;
    }

    public void startTracer() {
        startTracer(new HashMap<String, Object>());
    }

    /** A fresh tracer with these (parsed) option values, and a configuration snapshot of them for the plugin's settings. */
    public void startTracer(Map<String, Object> options) {
        testTracer = TestTracer.create(options);
        GlobalTracer.set(testTracer.tracer(), Config.ofParsed(options));
    }

    /** Stops the tracer and checks that nothing leaked: empty active stack, every pooled object returned exactly once. */
    public void stopTracer() {
        GlobalTracer.set(null, null);
        if (testTracer == null) {
            return;
        }
        Tracer tracer = testTracer.tracer();
        testTracer.verifyAndReset();
        assertEquals(0, tracer.poolConflicts(), "pool conflicts");
        assertEquals(0, tracer.deactivationMismatches(), "deactivation mismatches");
        testTracer = null;
    }

    public Tracer tracer() {
        return testTracer.tracer();
    }

    public ListReporter reporter() {
        return testTracer.reporter();
    }

    /** Runs {@code work} inside a new root transaction, active on this thread, which is ended afterwards. */
    public <T> T inTransaction(Callable<T> work) throws Exception {
        Tracer tracer = tracer();
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

    public List<Span> spans() {
        return reporter().spans();
    }

    public Span onlySpan() {
        List<Span> spans = spans();
        assertEquals(1, spans.size(), () -> "spans: " + describe(spans));
        return spans.get(0);
    }

    public static String describe(List<Span> spans) {
        List<String> out = new ArrayList<>();
        for (Span s : spans) {
            out.add(s.name() + " [" + s.type() + "/" + s.subtype() + "/" + s.action() + "]");
        }
        return out.toString();
    }

    public static void assertChildOf(AbstractSpan parent, Span span) {
        assertEquals(parent.traceContext().id(), span.traceContext().parentId(), "parent id");
        assertTrue(span.isEnded(), "ended");
    }
}
