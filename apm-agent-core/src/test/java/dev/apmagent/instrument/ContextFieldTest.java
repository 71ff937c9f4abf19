package dev.apmagent.instrument;

import dev.apmagent.plugin.ContextField;
import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.Instrumentation;
import dev.apmagent.testing.ChildFirstLoader;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Context fields, end to end through the real class file hook: the classes of {@code testlib.ctx} are loaded in class
 * loaders of their own, one before the instrumentation is installed (retransformed: the stores use their maps) and one
 * after (transformed as they load: the field), and the stores answer the same on both.
 */
public class ContextFieldTest {

    public static final AtomicInteger touched = new AtomicInteger();

    /** Bound once per JVM: a key type's field belongs to its first store. */
    static final ContextStore<String> keys = ContextStore.forType("testlib.ctx.Key", 64, 3);
    static final ContextStore<String> others = ContextStore.forType("testlib.ctx.OtherKey", 64, 3);

    private InstrumentationInstaller.Installed installed;
    private ClassLoader before;
    private ClassLoader after;

    @BeforeEach
    void install() throws Exception {
        before = loader(ClassLoader.getSystemClassLoader());
        for (String name : Arrays.asList("KeyImpl", "KeySub", "BothKeys", "OtherImpl", "OnUnmatchedBase")) {
            Class.forName("testlib.ctx." + name, true, before);
        }
        installed = InstrumentationInstaller.install(ByteBuddyAgent.install(),
                Collections.<Instrumentation>singletonList(new KeysInstrumentation()), getClass().getClassLoader(), true);
        after = loader(ClassLoader.getSystemClassLoader());
        touched.set(0);
    }

    @AfterEach
    void uninstall() {
        if (installed != null) {
            assertEquals(0, installed.errors(), "transformation errors");
            installed.uninstall(ByteBuddyAgent.install());
        }
        assertEquals(0, keys.size(), "every test removes what it put into the map");
        assertEquals(0, others.size());
    }

    @Test
    void aClassLoadedAfterInstallationGetsTheFieldAndTheMapStaysEmpty() throws Exception {
        Object key = create(after, "KeyImpl");
        assertTrue(key instanceof ContextField);
        assertTrue(keys.ownsField());
        Field field = key.getClass().getDeclaredField(ContextFieldInjector.FIELD_NAME);
        int modifiers = field.getModifiers();
        assertTrue(Modifier.isPrivate(modifiers) && Modifier.isTransient(modifiers) && Modifier.isVolatile(modifiers)
                && field.isSynthetic(), field.toString());

        assertTrue(keys.put(key, "a"));
        assertEquals("a", keys.get(key));
        assertEquals(0, keys.size(), "the value is in the field, not in the map");
        field.setAccessible(true);
        assertEquals("a", field.get(key));
        assertEquals("touched", key.getClass().getMethod("touch").invoke(key));
        assertEquals(1, touched.get(), "the advice is there too, from the same transformation");
        assertEquals("a", keys.remove(key));
        assertNull(field.get(key));
    }

    @Test
    void aClassRetransformedAfterLoadingUsesTheMap() throws Exception {
        Object key = create(before, "KeyImpl");
        assertFalse(key instanceof ContextField);
        assertEquals("touched", key.getClass().getMethod("touch").invoke(key));
        assertEquals(1, touched.get(), "retransformed with its advice");

        assertTrue(keys.put(key, "a"));
        assertEquals("a", keys.get(key));
        assertEquals(1, keys.size());
        assertEquals("a", keys.remove(key));
        assertEquals(0, keys.size());
    }

    @Test
    void bothPathsGiveTheSameAnswers() throws Exception {
        Object withField = create(after, "KeyImpl");
        Object inMap = create(before, "KeyImpl");
        assertTrue(withField instanceof ContextField);
        assertFalse(inMap instanceof ContextField);
        assertEquals(script(keys, inMap), script(keys, withField));
    }

    /** Every operation's answer, in order; the map's size is checked on the side. */
    private static List<Object> script(ContextStore<String> store, Object key) {
        List<Object> answers = new ArrayList<>();
        answers.add(store.get(key));
        answers.add(store.remove(key));
        answers.add(store.putIfAbsent(key, "first"));
        answers.add(store.putIfAbsent(key, "second"));
        answers.add(store.get(key));
        answers.add(store.put(key, new String("first")));
        answers.add(store.get(key));
        answers.add(store.put(key, "third"));
        answers.add(store.get(key));
        answers.add(store.put(key, null));
        answers.add(store.put(null, "x"));
        answers.add(store.get(null));
        answers.add(store.get(key));
        answers.add(store.remove(key));
        answers.add(store.get(key));
        answers.add(store.remove(key));
        answers.add(store.rejected());
        return answers;
    }

    @Test
    void aSubclassUsesTheFieldOfItsSuperclassAndDeclaresNone() throws Exception {
        Object sub = create(after, "KeySub");
        Object base = create(after, "KeyImpl");
        assertTrue(sub instanceof ContextField, "inherited");
        assertFalse(Arrays.asList(sub.getClass().getInterfaces()).contains(ContextField.class));
        for (Field f : sub.getClass().getDeclaredFields()) {
            assertFalse(f.getName().startsWith("apmagent$"), "a second field: " + f);
        }
        assertTrue(keys.put(sub, "sub"));
        assertTrue(keys.put(base, "base"));
        assertEquals("sub", keys.get(sub));
        assertEquals("base", keys.get(base));
        assertEquals(0, keys.size());
        assertEquals("sub touched", sub.getClass().getMethod("touch").invoke(sub));
        keys.remove(sub);
        keys.remove(base);
    }

    @Test
    void aSubclassOfAKeyClassWithoutTheFieldUsesTheMap() throws Exception {
        Object key = create(after, "OnUnmatchedBase");
        assertFalse(key instanceof ContextField, "its superclass is a key type: the subclass gets no field of its own");
        assertTrue(keys.put(key, "a"));
        assertEquals("a", keys.get(key));
        assertEquals(1, keys.size());
        keys.remove(key);
    }

    @Test
    void aClassOfTwoKeyTypesGetsNoFieldAndBothStoresUseTheirMaps() throws Exception {
        Object both = create(after, "BothKeys");
        assertFalse(both instanceof ContextField);
        assertTrue(keys.put(both, "as key"));
        assertTrue(others.put(both, "as other"));
        assertEquals("as key", keys.get(both));
        assertEquals("as other", others.get(both));
        assertEquals(1, keys.size());
        assertEquals(1, others.size());
        keys.remove(both);
        others.remove(both);
    }

    @Test
    void aStoreNeverUsesTheFieldOfAnotherKeyType() throws Exception {
        Object other = create(after, "OtherImpl");
        assertTrue(other instanceof ContextField);
        assertEquals("testlib.ctx.OtherKey", ((ContextField) other).apmagent$contextKeyType());
        assertTrue(others.put(other, "in the field"));
        assertTrue(keys.put(other, "in the map"));
        ContextStore<String> mapOnly = new ContextStore<>(8, 2);
        assertTrue(mapOnly.put(other, "in another map"));
        assertEquals("in the field", others.get(other));
        assertEquals("in the map", keys.get(other));
        assertEquals("in another map", mapOnly.get(other));
        assertEquals(0, others.size());
        assertEquals(1, keys.size());
        assertEquals(1, mapOnly.size());
        keys.remove(other);
        others.remove(other);
    }

    @Test
    void aSecondStoreOfAKeyTypeUsesItsMap() throws Exception {
        ContextStore<String> second = ContextStore.forType("testlib.ctx.Key", 8, 2);
        assertFalse(second.ownsField());
        Object key = create(after, "KeyImpl");
        assertTrue(keys.put(key, "first store"));
        assertTrue(second.put(key, "second store"));
        assertEquals("first store", keys.get(key));
        assertEquals("second store", second.get(key));
        assertEquals(1, second.size());
        keys.remove(key);
    }

    @Test
    void serializableClassesWithoutSerialVersionUidGetNoField() throws Exception {
        Object key = create(after, "SerialKey");
        assertFalse(key instanceof ContextField);
    }

    @Test
    void theGenericSignatureNamesTheAddedInterface() throws Exception {
        Object key = create(after, "GenericKey");
        assertTrue(key instanceof ContextField);
        assertTrue(Arrays.asList(key.getClass().getGenericInterfaces()).contains(ContextField.class),
                Arrays.toString(key.getClass().getGenericInterfaces()));
    }

    @Test
    void aKeyWithAFieldIsCollectedWithItsValueAndNothingToCleanUp() throws Exception {
        Object key = create(after, "KeyImpl");
        String value = new String("value");
        WeakReference<Object> keyRef = new WeakReference<>(key);
        WeakReference<Object> valueRef = new WeakReference<>(value);
        assertTrue(keys.put(key, value));
        key = null;
        value = null;
        for (int i = 0; i < 50 && (keyRef.get() != null || valueRef.get() != null); i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(keyRef.get());
        assertNull(valueRef.get(), "the value went with its key");
        assertEquals(0, keys.size());
    }

    /**
     * A retransformation starts from the class file without the field: the hook adds it again, or the JVM would refuse
     * the new version. The value survives retransformation and removal of the instrumentation.
     */
    @Test
    void retransformingAClassWithAFieldKeepsItAndItsValue() throws Exception {
        Object key = create(after, "KeyImpl");
        assertTrue(keys.put(key, "kept"));
        ByteBuddyAgent.install().retransformClasses(key.getClass());
        assertEquals("kept", keys.get(key));
        key.getClass().getMethod("touch").invoke(key);
        assertEquals(1, touched.get(), "still advised");

        assertTrue(installed.uninstall(ByteBuddyAgent.install()));
        installed = null;
        key.getClass().getMethod("touch").invoke(key);
        assertEquals(1, touched.get(), "the advice is gone");
        assertTrue(key instanceof ContextField, "the field stays");
        assertEquals("kept", keys.get(key));

        installed = InstrumentationInstaller.install(ByteBuddyAgent.install(),
                Collections.<Instrumentation>singletonList(new KeysInstrumentation()), getClass().getClassLoader(), true);
        key.getClass().getMethod("touch").invoke(key);
        assertEquals(2, touched.get(), "installed again: the class was retransformed, its field added again");
        assertEquals("kept", keys.remove(key));
    }

    /** A loader that cannot see the agent: the class could not be defined with the accessor, so it gets no field. */
    @Test
    void aLoaderThatCannotSeeTheAccessorGetsNoField() throws Exception {
        Object key = create(loader(ClassLoader.getPlatformClassLoader()), "KeyImpl");
        assertFalse(key instanceof ContextField);
        assertEquals("touched", key.getClass().getMethod("touch").invoke(key), "and works unchanged");
    }

    private static Object create(ClassLoader loader, String simpleName) throws Exception {
        Class<?> type = Class.forName("testlib.ctx." + simpleName, true, loader);
        assertEquals(loader, type.getClassLoader());
        return type.getConstructor().newInstance();
    }

    /** Loads {@code testlib.ctx.*} from the test classes itself, everything else from {@code parent}. */
    private static ClassLoader loader(ClassLoader parent) {
        URL classes = ContextFieldTest.class.getProtectionDomain().getCodeSource().getLocation();
        assertNotNull(classes);
        return new ChildFirstLoader(classes, parent, "testlib.ctx.");
    }

    /** Every {@code testlib.ctx} class but {@code UnmatchedBase}; advice on {@code touch()}; two key types. */
    static final class KeysInstrumentation extends Instrumentation {
        @Override
        public String name() {
            return "context-keys";
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeNamePreFilter() {
            return nameStartsWith("testlib.ctx.");
        }

        @Override
        public ElementMatcher<? super TypeDescription> typeMatcher() {
            return not(isInterface()).and(not(named("testlib.ctx.UnmatchedBase")));
        }

        @Override
        public List<AdviceBinding> advice() {
            return AdviceBinding.single(named("touch"), TouchAdvice.class.getName());
        }

        @Override
        public List<String> contextKeyTypes() {
            return Arrays.asList("testlib.ctx.Key", "testlib.ctx.OtherKey");
        }
    }

    public static class TouchAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        public static void enter() {
            touched.incrementAndGet();
        }
    }
}
