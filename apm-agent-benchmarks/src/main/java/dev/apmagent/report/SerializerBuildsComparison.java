package dev.apmagent.report;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;

/**
 * {@link SerializerBenchmark#serialize()} of several builds in one JVM, interleaved batch by batch, in CPU time of the
 * measuring thread: for before/after comparisons on a machine whose other load moves JMH's wall-clock scores by
 * 15-25% between forks. Each build is a class path (a {@code benchmarks.jar}) with a class loader of its own, so each
 * has its own classes and JIT profiles; the builds take turns for every event type in every round, in alternating
 * order. Prints, per event type and build, the median, minimum and quartiles of the rounds in ns per event (the
 * reflective call included, the same for every build).
 *
 * <pre>
 * java -cp apm-agent-benchmarks/target/benchmarks.jar dev.apmagent.report.SerializerBuildsComparison \
 *     [--rounds 15] [--batch 200000] /tmp/before.jar apm-agent-benchmarks/target/benchmarks.jar
 * </pre>
 */
public final class SerializerBuildsComparison {

    static final String[] EVENT_TYPES = {"transaction", "span", "error"};
    private static final int WARM_UP_ROUNDS = 3;

    private SerializerBuildsComparison() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = 15;
        int batch = 200_000;
        int i = 0;
        for (; i < args.length && args[i].startsWith("--"); i += 2) {
            if ("--rounds".equals(args[i])) {
                rounds = Integer.parseInt(args[i + 1]);
            } else if ("--batch".equals(args[i])) {
                batch = Integer.parseInt(args[i + 1]);
            } else {
                throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String[] builds = Arrays.copyOfRange(args, i, args.length);
        double[][][] nanos = compare(builds, rounds, batch);
        for (int t = 0; t < EVENT_TYPES.length; t++) {
            for (int b = 0; b < builds.length; b++) {
                double[] x = nanos[b][t].clone();
                Arrays.sort(x);
                System.out.printf("%-12s %-50s median %8.1f  min %8.1f  p25 %8.1f  p75 %8.1f ns/event (CPU)%n",
                        EVENT_TYPES[t], builds[b], x[x.length / 2], x[0], x[x.length / 4], x[3 * x.length / 4]);
            }
        }
    }

    /** CPU ns per event: [build][event type][round]. Each build is a class path (entries split by the path separator). */
    static double[][][] compare(String[] builds, int rounds, int batch) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int n = builds.length;
        Object[][] benchmarks = new Object[n][EVENT_TYPES.length];
        Method[] serialize = new Method[n];
        for (int b = 0; b < n; b++) {
            String[] entries = builds[b].split(File.pathSeparator);
            URL[] urls = new URL[entries.length];
            for (int e = 0; e < entries.length; e++) {
                urls[e] = new File(entries[e]).toURI().toURL();
            }
            Class<?> c = new URLClassLoader(urls, ClassLoader.getSystemClassLoader().getParent())
                    .loadClass(SerializerBenchmark.class.getName());
            serialize[b] = c.getMethod("serialize");
            for (int t = 0; t < EVENT_TYPES.length; t++) {
                Object benchmark = c.getConstructor().newInstance();
                c.getField("eventType").set(benchmark, EVENT_TYPES[t]);
                c.getMethod("setUp").invoke(benchmark);
                benchmarks[b][t] = benchmark;
            }
        }
        double[][][] nanos = new double[n][EVENT_TYPES.length][rounds];
        long bytes = 0;
        for (int round = -WARM_UP_ROUNDS; round < rounds; round++) {
            for (int t = 0; t < EVENT_TYPES.length; t++) {
                for (int k = 0; k < n; k++) {
                    int b = (round & 1) == 0 ? k : n - 1 - k;
                    Object benchmark = benchmarks[b][t];
                    Method m = serialize[b];
                    long start = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < batch; i++) {
                        bytes += (Integer) m.invoke(benchmark);
                    }
                    long cpu = threads.getCurrentThreadCpuTime() - start;
                    if (round >= 0) {
                        nanos[b][t][round] = (double) cpu / batch;
                    }
                }
            }
        }
        if (bytes <= 0) {
            throw new IllegalStateException("the serializers wrote nothing");
        }
        return nanos;
    }
}
