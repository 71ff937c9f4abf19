package dev.apmagent.report;

import java.util.Arrays;

/** The event types of a request's in-flight events, in the order they were sent (growable, reused, one writer). */
final class TypeSequence {

    private byte[] types = new byte[1024];
    private final int[] counts = new int[EventTypes.COUNT];
    private volatile int size;

    void add(int type) {
        int n = size;
        if (n == types.length) {
            types = Arrays.copyOf(types, n * 2);
        }
        types[n] = (byte) type;
        counts[type]++;
        size = n + 1;
    }

    int size() {
        return size;
    }

    int get(int i) {
        return types[i];
    }

    int count(int type) {
        return counts[type];
    }

    void clear() {
        Arrays.fill(counts, 0);
        size = 0;
    }
}
