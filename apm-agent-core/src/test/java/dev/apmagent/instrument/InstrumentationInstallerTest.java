package dev.apmagent.instrument;

import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.plugin.Plugin;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.modifier.SyntheticState;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import testlib.Greeter;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Installs real instrumentations with {@link InstrumentationInstaller} into classes that are already loaded (the
 * runtime-attach path) and into classes defined afterwards (the class file hook), and checks that advice runs, that
 * advice failures never reach the application, and that disabled instrumentations and generated classes are left
 * alone.
 */
public class InstrumentationInstallerTest {

    public static final AtomicInteger enterCalls = new AtomicInteger();
    public static final AtomicInteger exitCalls = new AtomicInteger();

    private InstrumentationInstaller.Installed installed;

    @AfterEach
    void uninstall() {
        if (installed != null) {
            installed.uninstall(ByteBuddyAgent.install());
        }
        enterCalls.set(0);
        exitCalls.set(0);
    }

    @Test
    void adviceRunsOnAlreadyLoadedClasses() {
        Greeter greeter = new Greeter();
        assertEquals("hello bob", greeter.greet("bob"));
        install(new CountingInstrumentation("counting", "dev.apmagent.instrument.InstrumentationInstallerTest$CountingAdvice"));

        assertEquals("hello bob", greeter.greet("bob"));
        assertEquals(1, enterCalls.get());
        assertEquals(1, exitCalls.get());
        assertTrue(installed.transformedTypes() >= 1);
    }

    @Test
    void theAgentsOwnClassesAreNeverInstrumented() {
        install(new CountingInstrumentation("counting", "dev.apmagent.instrument.InstrumentationInstallerTest$CountingAdvice"));

        assertEquals("hello bob", new AgentGreeter().greet("bob"));
        assertEquals(0, enterCalls.get());
        assertEquals("hello bob", new Greeter().greet("bob"));
        assertEquals(1, enterCalls.get());
    }

    @Test
    void adviceThatThrowsChangesNeitherResultNorException() {
        install(new CountingInstrumentation("throwing", "dev.apmagent.instrument.InstrumentationInstallerTest$ThrowingAdvice"));

        assertEquals("hello ann", new Greeter().greet("ann"));
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> new Greeter().greet(null));
        assertEquals("no name", thrown.getMessage());
        assertEquals(2, enterCalls.get(), "the advice ran (and threw) on both calls");
    }

    @Test
    void classesLoadedAfterInstallationAreInstrumentedInEveryLoader() throws Exception {
        install(new CountingInstrumentation("counting", "dev.apmagent.instrument.InstrumentationInstallerTest$CountingAdvice"));

        for (int i = 0; i < 3; i++) { // three class loaders, three transformations by the class file hook
            assertEquals("hello bob", greet(defineGreeter("testlib.LateGreeter", false), "bob"));
        }
        assertEquals(3, enterCalls.get());
        assertEquals(3, exitCalls.get());
    }

    @Test
    void syntheticClassesAreNeverInstrumented() throws Exception {
        install(new CountingInstrumentation("counting", "dev.apmagent.instrument.InstrumentationInstallerTest$CountingAdvice"));

        assertEquals("hello bob", greet(defineGreeter("testlib.GeneratedGreeter", true), "bob"));
        assertEquals(0, enterCalls.get());
        assertEquals("hello bob", greet(defineGreeter("testlib.GeneratedGreeter", false), "bob"));
        assertEquals(1, enterCalls.get(), "the same class, not synthetic, is instrumented");
    }

    @Test
    void aClassMatchedByTwoInstrumentationsGetsTheAdviceOfBoth() {
        Greeter greeter = new Greeter();
        installed = InstrumentationInstaller.install(ByteBuddyAgent.install(), Arrays.<Instrumentation>asList(
                new CountingInstrumentation("counting", "dev.apmagent.instrument.InstrumentationInstallerTest$CountingAdvice"),
                new CountingInstrumentation("counting-too", "dev.apmagent.instrument.InstrumentationInstallerTest$CountingAdvice")),
                getClass().getClassLoader(), true);

        assertEquals("hello bob", greeter.greet("bob"));
        assertEquals(2, enterCalls.get());
        assertEquals(2, exitCalls.get());
    }

    @Test
    void uninstallingRestoresTheOriginalCode() {
        Greeter greeter = new Greeter();
        install(new CountingInstrumentation("counting", "dev.apmagent.instrument.InstrumentationInstallerTest$CountingAdvice"));
        assertEquals("hello bob", greeter.greet("bob"));
        assertEquals(1, enterCalls.get());

        assertTrue(installed.uninstall(ByteBuddyAgent.install()));
        installed = null;
        assertEquals("hello bob", greeter.greet("bob"));
        assertEquals(1, enterCalls.get(), "no advice after removal");
    }

    @Test
    void disabledInstrumentationIsNotInstalled() {
        Plugin plugin = plugin(new CountingInstrumentation("counting", "dev.apmagent.instrument.InstrumentationInstallerTest$CountingAdvice"));
        List<Instrumentation> selected = new InstrumentationSelection(Collections.<String>emptyList(), Arrays.asList("test-group"))
                .select(Collections.singletonList(plugin));
        installed = InstrumentationInstaller.install(ByteBuddyAgent.install(), selected, getClass().getClassLoader(), true);

        assertEquals("hello bob", new Greeter().greet("bob"));
        assertEquals(0, enterCalls.get());
    }

    /** Defines a greeter class in a new class loader, after installation: the class file hook transforms it. */
    private Class<?> defineGreeter(String name, boolean synthetic) {
        return new ByteBuddy()
                .subclass(Object.class)
                .name(name)
                .modifiers(Visibility.PUBLIC, synthetic ? SyntheticState.SYNTHETIC : SyntheticState.PLAIN)
                .defineMethod("greet", String.class, Visibility.PUBLIC).withParameters(String.class)
                .intercept(FixedValue.value("hello bob"))
                .make()
                .load(getClass().getClassLoader(), ClassLoadingStrategy.Default.WRAPPER)
                .getLoaded();
    }

    private static String greet(Class<?> greeter, String name) throws Exception {
        Object instance = greeter.getConstructor().newInstance();
        return (String) greeter.getMethod("greet", String.class).invoke(instance, name);
    }

    private void install(Instrumentation instrumentation) {
        installed = InstrumentationInstaller.install(ByteBuddyAgent.install(), Collections.singletonList(instrumentation),
                getClass().getClassLoader(), true);
    }

    private static Plugin plugin(final Instrumentation instrumentation) {
        return new Plugin() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public List<Instrumentation> instrumentations() {
                return Collections.singletonList(instrumentation);
            }
        };
    }

    /** Same shape as {@link Greeter}, but inside the agent's own packages, which are never instrumented. */
    public static class AgentGreeter {
        public String greet(String name) {
            return "hello " + name;
        }
    }

    static final class CountingInstrumentation extends Instrumentation {
        private final String name;
        private final String advice;

        CountingInstrumentation(String name, String advice) {
            this.name = name;
            this.advice = advice;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public java.util.Collection<String> groupNames() {
            return Collections.singletonList("test-group");
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
            return nameContains("Greeter");
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeMatcher() {
            return named("testlib.Greeter").or(named("testlib.LateGreeter")).or(named("testlib.GeneratedGreeter"))
                    .or(named("dev.apmagent.instrument.InstrumentationInstallerTest$AgentGreeter"));
        }

        @Override
        public List<AdviceBinding> advice() {
            return AdviceBinding.single(named("greet"),
                    advice);
        }
    }

    public static class CountingAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter() {
            enterCalls.incrementAndGet();
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit() {
            exitCalls.incrementAndGet();
        }
    }

    public static class ThrowingAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter() {
            enterCalls.incrementAndGet();
            throw new RuntimeException("advice failure");
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        public static void exit(@Advice.Return(readOnly = false) String returned) {
            throw new RuntimeException("advice failure on exit");
        }
    }
}
