package dev.apmagent.benchmark.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux's /proc says about a process: CPU time ({@code utime + stime} of /proc/PID/stat, all threads, in clock
 * ticks) and resident memory ({@code VmRSS} of /proc/PID/status). The harness reads them for the application JVM
 * before and after the measured window.
 */
final class ProcStats {

    private ProcStats() {
    }

    static boolean available() {
        return Files.isReadable(Path.of("/proc/self/stat"));
    }

    /** utime + stime of the process, in clock ticks. */
    static long cpuTicks(long pid) throws IOException {
        return cpuTicksOf(Files.readString(Path.of("/proc/" + pid + "/stat")));
    }

    /** Parses a /proc/PID/stat line: fields 14 and 15, counted after the command name in parentheses. */
    static long cpuTicksOf(String stat) {
        // the command name (field 2) may hold spaces and parentheses; the fields after its last ')' are fixed
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields[0] is field 3 (state)
    }

    /** VmRSS of the process, in KiB. */
    static long rssKib(long pid) throws IOException {
        return rssKibOf(Files.readString(Path.of("/proc/" + pid + "/status")));
    }

    static long rssKibOf(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").trim());
            }
        }
        throw new IllegalArgumentException("no VmRSS line");
    }

    /** Clock ticks per second (USER_HZ), from {@code getconf CLK_TCK}; 100 where that fails, as on every Linux. */
    static long clockTicksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
