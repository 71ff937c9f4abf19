package dev.apmagent.plugin.okhttp;

import java.lang.management.ManagementFactory;

/** Bytes the current thread allocates per run of some code, after a warm-up ({@code ThreadMXBean}). */
final class AllocationMeter {

    private static final int WARM_UP = 20_000;
    private static final int CALLS = 100_000;
    private static final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationMeter() {
    }

    static long bytesPerCall(Runnable work) {
        for (int i = 0; i < WARM_UP; i++) {
            work.run();
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            work.run();
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / CALLS;
    }
}
