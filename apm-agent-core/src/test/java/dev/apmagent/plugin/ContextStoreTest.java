package dev.apmagent.plugin;

import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContextStoreTest {

    @Test
    void keysAreComparedByIdentity() {
        ContextStore<String> map = new ContextStore<>(16, 2);
        String a = new String("key");
        String b = new String("key");
        assertTrue(map.put(a, "A"));
        assertNull(map.get(b), "an equal but different object is another key");
        assertTrue(map.put(b, "B"));
        assertEquals("A", map.get(a));
        assertEquals("B", map.get(b));
        assertEquals(2, map.size());
    }

    @Test
    void putReplacesPutIfAbsentDoesNotRemoveForgets() {
        ContextStore<String> map = new ContextStore<>(16, 1);
        Object key = new Object();
        assertTrue(map.putIfAbsent(key, "first"));
        assertFalse(map.putIfAbsent(key, "second"));
        assertEquals("first", map.get(key));
        assertTrue(map.put(key, "third"));
        assertEquals("third", map.get(key));
        assertEquals(1, map.size());
        assertEquals("third", map.remove(key));
        assertNull(map.get(key));
        assertNull(map.remove(key));
        assertEquals(0, map.size());
        assertNull(map.get(null));
        assertFalse(map.put(null, "x"));
        assertFalse(map.put(key, null));
    }

    /** A driver's prepareStatement overloads map the same statement to the same SQL again: nothing is written. */
    @Test
    void mappingAKeyToTheValueItHasAllocatesNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        ContextStore<String> map = new ContextStore<>(16, 2);
        Object key = new Object();
        String sql = "SELECT 1";
        for (int i = 0; i < 20_000; i++) {
            assertTrue(map.put(key, sql));
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            map.put(key, sql);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1024, allocated + " B for 10,000 puts of the same mapping");
        assertEquals(sql, map.get(key));
        assertEquals(1, map.size());
        assertTrue(map.put(key, "SELECT 2"), "another value still replaces it");
        assertEquals("SELECT 2", map.get(key));
        assertEquals(1, map.size());
    }

    @Test
    void removesFromAnyPositionOfAChain() {
        // one bucket: every key shares the chain
        ContextStore<Integer> map = new ContextStore<>(100, 1);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Object k = new Object();
            keys.add(k);
            assertTrue(map.put(k, i));
        }
        for (int i = 0; i < 20; i += 3) {
            assertEquals(i, map.remove(keys.get(i)));
        }
        for (int i = 0; i < 20; i++) {
            assertEquals(i % 3 == 0 ? null : (Integer) i, map.get(keys.get(i)));
        }
        assertEquals(20 - 7, map.size());
    }

    @Test
    void boundedNewKeysAreRejectedAndCounted() {
        ContextStore<String> map = new ContextStore<>(8, 2);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Object k = new Object();
            keys.add(k);
            assertTrue(map.put(k, "v"));
        }
        Object extra = new Object();
        assertFalse(map.put(extra, "v"));
        assertEquals(1, map.rejected());
        assertTrue(map.put(keys.get(0), "replaced"), "an existing key may still be replaced");
        map.remove(keys.get(1));
        assertTrue(map.put(extra, "v"));
        assertEquals(8, map.size());
    }

    @Test
    void entriesOfCollectedKeysAreDroppedWhenTheMapIsFull() throws Exception {
        ContextStore<String> map = new ContextStore<>(64, 3);
        List<WeakReference<Object>> refs = new ArrayList<>();
        fill(map, refs);
        assertEquals(64, map.size());
        awaitCollected(refs);
        Object survivor = new Object();
        assertTrue(map.put(survivor, "new"), "the full map swept the entries of collected keys");
        assertEquals(1, map.sweeps());
        assertEquals(1, map.size());
        assertSame("new", map.get(survivor));
    }

    private static void fill(ContextStore<String> map, List<WeakReference<Object>> refs) {
        for (int i = 0; i < 64; i++) {
            Object k = new Object();
            refs.add(new WeakReference<>(k));
            assertTrue(map.put(k, "v"));
        }
    }

    private static void awaitCollected(List<WeakReference<Object>> refs) throws InterruptedException {
        for (int attempt = 0; attempt < 50; attempt++) {
            System.gc();
            boolean all = true;
            for (WeakReference<Object> r : refs) {
                all &= r.get() == null;
            }
            if (all) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("keys were not collected");
    }

    /** What the class file hook generates in a key type's class, written by hand (ContextFieldTest has the real one). */
    static final class FieldKey implements ContextField {
        private final String keyType;
        private transient volatile Object context;

        FieldKey() {
            this("test.FieldKey");
        }

        /** The generated method returns a string constant: interned. */
        FieldKey(String keyType) {
            this.keyType = keyType.intern();
        }

        @Override
        public String apmagent$contextKeyType() {
            return keyType;
        }

        @Override
        public Object apmagent$lvContext() {
            return context;
        }

        @Override
        public void apmagent$svContext(Object value) {
            context = value;
        }
    }

    static final ContextStore<String> fieldKeys = ContextStore.forType("test.FieldKey", 8, 2);

    static {
        ContextStore.fieldAdded("test.FieldKey"); // what the hook does before it defines a class with the field
    }

    /** After an attach no class has the field: the store never even asks a key whether it implements ContextField. */
    @Test
    void whileNoClassHasTheFieldTheStoreUsesItsMap() {
        ContextStore<String> store = ContextStore.forType("test.NoFieldYet", 8, 2);
        assertTrue(store.ownsField());
        FieldKey key = new FieldKey("test.NoFieldYet");
        assertTrue(store.put(key, "in the map"));
        assertEquals(1, store.size());
        assertNull(key.context);
        assertEquals("in the map", store.remove(key));
    }

    @Test
    void aKeyWithTheStoresFieldKeepsItsValueThereAndTheMapStaysEmpty() {
        assertTrue(fieldKeys.ownsField());
        FieldKey key = new FieldKey();
        assertTrue(fieldKeys.putIfAbsent(key, "first"));
        assertFalse(fieldKeys.putIfAbsent(key, "second"));
        assertEquals("first", key.context);
        assertTrue(fieldKeys.put(key, "third"));
        assertEquals("third", fieldKeys.get(key));
        assertEquals(0, fieldKeys.size());
        assertEquals("third", fieldKeys.remove(key));
        assertNull(key.context);
        assertNull(fieldKeys.remove(key));
        assertEquals(0, fieldKeys.size());
    }

    @Test
    void theFieldIsNeverFull() {
        List<FieldKey> keys = new ArrayList<>();
        for (int i = 0; i < 3 * fieldKeys.maxSize(); i++) {
            FieldKey key = new FieldKey();
            keys.add(key);
            assertTrue(fieldKeys.put(key, "v"));
        }
        assertEquals(0, fieldKeys.rejected());
        assertEquals(0, fieldKeys.size());
    }

    @Test
    void storesThatDoNotOwnTheFieldUseTheirMap() {
        ContextStore<String> second = ContextStore.forType("test.FieldKey", 8, 2);
        ContextStore<String> mapOnly = new ContextStore<>(8, 2);
        assertFalse(second.ownsField());
        assertFalse(mapOnly.ownsField());
        FieldKey key = new FieldKey();
        assertTrue(second.put(key, "second"));
        assertTrue(mapOnly.put(key, "map only"));
        assertNull(key.context, "the field is the first store's");
        assertEquals("second", second.get(key));
        assertEquals("map only", mapOnly.get(key));
        assertEquals(1, second.size());
        assertEquals(1, mapOnly.size());
    }

    /** Setting or reading a field allocates nothing, whatever the value. */
    @Test
    void theFieldAllocatesNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        FieldKey key = new FieldKey();
        String[] values = {"a", "b"};
        for (int i = 0; i < 20_000; i++) {
            fieldKeys.put(key, values[i & 1]);
            fieldKeys.get(key);
            fieldKeys.remove(key);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            fieldKeys.put(key, values[i & 1]);
            fieldKeys.putIfAbsent(key, "x");
            fieldKeys.get(key);
            fieldKeys.remove(key);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1024, allocated + " B for 10,000 rounds");
    }

    /** 2 buckets: every operation contends on the same chains; 64 buckets: mostly not. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 6})
    void concurrentWritersAndReadersKeepEveryMapping(int bucketBits) throws Exception {
        ContextStore<Integer> map = new ContextStore<>(100_000, bucketBits);
        int threads = 4;
        int perThread = 20_000;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> results = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                results.add(executor.submit(() -> {
                    start.await();
                    int errors = 0;
                    Object[] keys = new Object[64];
                    for (int i = 0; i < perThread; i++) {
                        int slot = i % keys.length;
                        if (keys[slot] != null) {
                            Integer v = map.remove(keys[slot]);
                            if (v == null || v != i - keys.length) {
                                errors++;
                            }
                        }
                        keys[slot] = new Object();
                        if (!map.put(keys[slot], i) || map.get(keys[slot]) != i) {
                            errors++;
                        }
                    }
                    for (Object k : keys) {
                        if (map.remove(k) == null) {
                            errors++;
                        }
                    }
                    return errors;
                }));
            }
            start.countDown();
            for (Future<Integer> f : results) {
                assertEquals(0, f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            executor.shutdownNow();
        }
        assertEquals(0, map.size());
    }
}
