package dev.apmagent.it.e2e;

import dev.apmagent.it.Jdk;
import dev.apmagent.it.TestPaths;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heap a forked JVM has in use after full collections, as that JVM itself reports it, taken with its own JDK's
 * {@code jcmd <pid>}: {@code GC.run} twice (the second also collects what only became unreachable in the first, such
 * as objects behind cleaners), then {@code GC.heap_info}. The figure is the sum of its heap lines' {@code used}
 * values: one line for G1 ({@code garbage-first heap total 48128K, used 14410K}) and ZGC, a young and an old
 * generation line for the serial and parallel collectors; the Metaspace lines that JDK 17 appends are not heap.
 * Nothing in the forked JVM changes for it: jcmd attaches through the JVM's attach listener.
 */
final class HeapAfterGc {

    private static final Pattern USED = Pattern.compile("\\bused (\\d+)([KMG])\\b");

    private HeapAfterGc() {
    }

    /** Fails with {@code CI=true}, skips the test otherwise, when {@code jdk} has no jcmd (a JRE). */
    static void assumeJcmd(Jdk jdk) {
        Path jcmd = jcmd(jdk);
        if (!Files.isExecutable(jcmd)) {
            String message = "no jcmd at " + jcmd + ": the heap after GC of the forked JVM cannot be measured";
            if (TestPaths.isCi()) {
                throw new IllegalStateException(message + " (a JDK, not a JRE, is required with CI=true)");
            }
            Assumptions.abort(message);
        }
    }

    /** Heap in use, in bytes, by the JVM {@code pid} (running on {@code jdk}) right after two full collections. */
    static long bytes(Jdk jdk, long pid, Path scratch) throws IOException, InterruptedException {
        Path commands = Files.write(scratch.resolve("jcmd-heap-after-gc.txt"),
                "GC.run\nGC.run\nGC.heap_info\n".getBytes(StandardCharsets.US_ASCII));
        Path output = scratch.resolve("jcmd-heap-after-gc.out");
        Process jcmd = new ProcessBuilder(jcmd(jdk).toString(), Long.toString(pid), "-f", commands.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly();
            throw new AssertionError("jcmd " + pid + " did not finish within 60 s");
        }
        String printed = new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
        if (jcmd.exitValue() != 0) {
            throw new AssertionError("jcmd " + pid + " exited with " + jcmd.exitValue() + ":\n" + printed);
        }
        return parse(printed);
    }

    /** The sum of the heap lines' {@code used} values of {@code GC.heap_info}'s output, in bytes. */
    static long parse(String heapInfo) {
        long used = 0;
        boolean found = false;
        for (String line : heapInfo.split("\n")) {
            if (line.trim().startsWith("Metaspace")) {
                break;
            }
            Matcher m = USED.matcher(line);
            while (m.find()) {
                int shift = m.group(2).equals("K") ? 10 : m.group(2).equals("M") ? 20 : 30;
                used += Long.parseLong(m.group(1)) << shift;
                found = true;
            }
        }
        if (!found) {
            throw new AssertionError("no heap 'used' figure in jcmd GC.heap_info's output:\n" + heapInfo);
        }
        return used;
    }

    private static Path jcmd(Jdk jdk) {
        return jdk.home().resolve("bin").resolve("jcmd");
    }
}
