package dev.apmagent.metrics;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * JVM and system metricsets with the names the Elastic Java agent sends, so the APM UI's JVM and system charts work:
 * <ul>
 * <li>untagged: {@code jvm.memory.heap.used/committed/max}, {@code jvm.memory.non_heap.used/committed(/max)},
 * {@code jvm.thread.count}, {@code jvm.gc.alloc} (bytes allocated by all threads, HotSpot),
 * {@code jvm.fd.used/max} (Unix), {@code system.cpu.total.norm.pct}, {@code system.process.cpu.total.norm.pct}
 * (0..1, normalised by processor count), {@code system.memory.total}, {@code system.memory.actual.free}
 * (MemAvailable on Linux, free physical memory elsewhere), {@code system.process.memory.size} (committed virtual);</li>
 * <li>per memory pool, tag {@code name}: {@code jvm.memory.heap.pool.used/committed/max} or
 * {@code jvm.memory.non_heap.pool.*};</li>
 * <li>per garbage collector, tag {@code name}: {@code jvm.gc.count}, {@code jvm.gc.time} (ms, cumulative as the
 * Elastic agent sends them).</li>
 * </ul>
 * Runs on the reporter thread every metrics_interval. The MXBean calls allocate a little (MemoryUsage objects);
 * at one collection per 30 s that is noise, and none of it happens on application threads.
 */
public final class JvmMetrics implements MetricSource {

    static final MetricName HEAP_USED = MetricName.of("jvm.memory.heap.used");
    static final MetricName HEAP_COMMITTED = MetricName.of("jvm.memory.heap.committed");
    static final MetricName HEAP_MAX = MetricName.of("jvm.memory.heap.max");
    static final MetricName NON_HEAP_USED = MetricName.of("jvm.memory.non_heap.used");
    static final MetricName NON_HEAP_COMMITTED = MetricName.of("jvm.memory.non_heap.committed");
    static final MetricName NON_HEAP_MAX = MetricName.of("jvm.memory.non_heap.max");
    static final MetricName HEAP_POOL_USED = MetricName.of("jvm.memory.heap.pool.used");
    static final MetricName HEAP_POOL_COMMITTED = MetricName.of("jvm.memory.heap.pool.committed");
    static final MetricName HEAP_POOL_MAX = MetricName.of("jvm.memory.heap.pool.max");
    static final MetricName NON_HEAP_POOL_USED = MetricName.of("jvm.memory.non_heap.pool.used");
    static final MetricName NON_HEAP_POOL_COMMITTED = MetricName.of("jvm.memory.non_heap.pool.committed");
    static final MetricName NON_HEAP_POOL_MAX = MetricName.of("jvm.memory.non_heap.pool.max");
    static final MetricName GC_COUNT = MetricName.of("jvm.gc.count");
    static final MetricName GC_TIME = MetricName.of("jvm.gc.time");
    static final MetricName GC_ALLOC = MetricName.of("jvm.gc.alloc");
    static final MetricName THREAD_COUNT = MetricName.of("jvm.thread.count");
    static final MetricName FD_USED = MetricName.of("jvm.fd.used");
    static final MetricName FD_MAX = MetricName.of("jvm.fd.max");
    static final MetricName SYSTEM_CPU = MetricName.of("system.cpu.total.norm.pct");
    static final MetricName PROCESS_CPU = MetricName.of("system.process.cpu.total.norm.pct");
    static final MetricName MEMORY_TOTAL = MetricName.of("system.memory.total");
    static final MetricName MEMORY_ACTUAL_FREE = MetricName.of("system.memory.actual.free");
    static final MetricName PROCESS_MEMORY_SIZE = MetricName.of("system.process.memory.size");

    private final File meminfo = new File("/proc/meminfo");
    /**
     * Looked up by the first collection, on the reporter thread a {@code metrics_interval} after start: the lookup
     * loads the JDK's management classes (cgroup readers, memory pool sensors, the GC beans), 55 ms of the agent's
     * start-up on one core when it was done in {@code premain}.
     */
    private Beans beans;

    private static final class Beans {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
        final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    }

    @Override
    public void collect(long epochMicros, MetricSink sink) {
        if (beans == null) {
            beans = new Beans();
        }
        MemoryMXBean memory = beans.memory;
        List<MemoryPoolMXBean> pools = beans.pools;
        List<GarbageCollectorMXBean> collectors = beans.collectors;
        sink.startSet(epochMicros, null, null);
        MemoryUsage heap = memory.getHeapMemoryUsage();
        sink.sample(HEAP_USED, heap.getUsed());
        sink.sample(HEAP_COMMITTED, heap.getCommitted());
        if (heap.getMax() > 0) {
            sink.sample(HEAP_MAX, heap.getMax());
        }
        MemoryUsage nonHeap = memory.getNonHeapMemoryUsage();
        sink.sample(NON_HEAP_USED, nonHeap.getUsed());
        sink.sample(NON_HEAP_COMMITTED, nonHeap.getCommitted());
        if (nonHeap.getMax() > 0) {
            sink.sample(NON_HEAP_MAX, nonHeap.getMax());
        }
        sink.sample(THREAD_COUNT, beans.threads.getThreadCount());
        long allocated = totalAllocatedBytes();
        if (allocated >= 0) {
            sink.sample(GC_ALLOC, allocated);
        }
        systemMetrics(sink);
        sink.endSet();

        for (int i = 0; i < pools.size(); i++) {
            MemoryPoolMXBean pool = pools.get(i);
            MemoryUsage u;
            try {
                u = pool.isValid() ? pool.getUsage() : null;
            } catch (RuntimeException e) {
                u = null;
            }
            if (u == null) {
                continue;
            }
            boolean isHeap = pool.getType() == MemoryType.HEAP;
            sink.startSet(epochMicros, "name", pool.getName());
            sink.sample(isHeap ? HEAP_POOL_USED : NON_HEAP_POOL_USED, u.getUsed());
            sink.sample(isHeap ? HEAP_POOL_COMMITTED : NON_HEAP_POOL_COMMITTED, u.getCommitted());
            if (u.getMax() > 0) {
                sink.sample(isHeap ? HEAP_POOL_MAX : NON_HEAP_POOL_MAX, u.getMax());
            }
            sink.endSet();
        }
        for (int i = 0; i < collectors.size(); i++) {
            GarbageCollectorMXBean gc = collectors.get(i);
            long count = gc.getCollectionCount();
            long time = gc.getCollectionTime();
            if (count < 0 && time < 0) {
                continue;
            }
            sink.startSet(epochMicros, "name", gc.getName());
            if (count >= 0) {
                sink.sample(GC_COUNT, count);
            }
            if (time >= 0) {
                sink.sample(GC_TIME, time);
            }
            sink.endSet();
        }
    }

    private long totalAllocatedBytes() {
        ThreadMXBean threads = beans.threads;
        if (!(threads instanceof com.sun.management.ThreadMXBean)) {
            return -1;
        }
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) threads;
        try {
            if (!t.isThreadAllocatedMemorySupported() || !t.isThreadAllocatedMemoryEnabled()) {
                return -1;
            }
            long[] ids = t.getAllThreadIds();
            long[] bytes = t.getThreadAllocatedBytes(ids);
            long sum = 0;
            for (long b : bytes) {
                if (b > 0) {
                    sum += b;
                }
            }
            return sum;
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }

    @SuppressWarnings("deprecation") // getSystemCpuLoad/getTotalPhysicalMemorySize: the Java 8 names
    private void systemMetrics(MetricSink sink) {
        OperatingSystemMXBean os = beans.os;
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
            com.sun.management.UnixOperatingSystemMXBean unix = (com.sun.management.UnixOperatingSystemMXBean) os;
            sink.sample(FD_USED, unix.getOpenFileDescriptorCount());
            sink.sample(FD_MAX, unix.getMaxFileDescriptorCount());
        }
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            com.sun.management.OperatingSystemMXBean sun = (com.sun.management.OperatingSystemMXBean) os;
            double systemCpu = sun.getSystemCpuLoad();
            if (systemCpu >= 0) {
                sink.sample(SYSTEM_CPU, systemCpu);
            }
            double processCpu = sun.getProcessCpuLoad();
            if (processCpu >= 0) {
                sink.sample(PROCESS_CPU, processCpu);
            }
            long total = sun.getTotalPhysicalMemorySize();
            if (total > 0) {
                sink.sample(MEMORY_TOTAL, total);
            }
            long available = memAvailable();
            sink.sample(MEMORY_ACTUAL_FREE, available >= 0 ? available : sun.getFreePhysicalMemorySize());
            long virtual = sun.getCommittedVirtualMemorySize();
            if (virtual > 0) {
                sink.sample(PROCESS_MEMORY_SIZE, virtual);
            }
        }
    }

    /** MemAvailable from /proc/meminfo in bytes (what "actual free" means on Linux), -1 elsewhere. */
    private long memAvailable() {
        if (!meminfo.canRead()) {
            return -1;
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(new FileInputStream(meminfo), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("MemAvailable:")) {
                    String v = line.substring("MemAvailable:".length()).trim();
                    int sp = v.indexOf(' ');
                    return Long.parseLong(sp > 0 ? v.substring(0, sp) : v) * 1024L;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
