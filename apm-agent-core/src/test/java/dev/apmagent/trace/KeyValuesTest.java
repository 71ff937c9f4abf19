package dev.apmagent.trace;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pairs kept by reference or copied from bytes, within the list's bounds. */
class KeyValuesTest {

    @Test
    void copiedBytesAreReadAsLatin1AndSurviveChangesOfTheSource() {
        KeyValues kv = new KeyValues(4);
        byte[] src = "xx caf\u00e9 \u00ff\tend".getBytes(StandardCharsets.ISO_8859_1);
        assertTrue(kv.addLatin1("x-a", src, 3, src.length - 3));
        Arrays.fill(src, (byte) 0); // a container recycles its buffer after the request
        assertEquals("caf\u00e9 \u00ff\tend", kv.value(0).toString());
        assertEquals(10, kv.value(0).length());
        assertEquals('\u00ff', kv.value(0).charAt(5));
        assertEquals("x-a", kv.key(0));
    }

    @Test
    void valuesAreCutAndPairsBounded() {
        KeyValues kv = new KeyValues(3);
        byte[] big = new byte[5000];
        Arrays.fill(big, (byte) 'v');
        assertTrue(kv.addLatin1("a", big, 0, big.length));
        assertTrue(kv.add("b", "ref"));
        assertTrue(kv.addLatin1("c", big, 0, 2));
        assertFalse(kv.addLatin1("d", big, 0, 2), "full");
        assertFalse(kv.add("d", "x"), "full");
        assertEquals(KeyValues.MAX_VALUE_LENGTH, kv.value(0).length());
        assertEquals("ref", kv.value(1));
        assertEquals("vv", kv.value(2).toString());
        assertFalse(new KeyValues(1).addLatin1(null, big, 0, 1), "no null keys");
    }

    @Test
    void reusedListsCopyWithoutAllocating() {
        KeyValues kv = new KeyValues();
        byte[] value = "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/130.0".getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < 1000; i++) {
            fill(kv, value);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1000; i++) {
            fill(kv, value);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1000, "allocated " + allocated + " B for 1000 lists of 32 copied values");
        assertEquals(KeyValues.DEFAULT_CAPACITY, kv.size());
    }

    private static void fill(KeyValues kv, byte[] value) {
        kv.reset();
        for (int i = 0; i < KeyValues.DEFAULT_CAPACITY; i++) {
            kv.addLatin1("user-agent", value, 0, value.length);
        }
    }
}
