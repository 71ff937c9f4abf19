package dev.apmagent.attach;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What Linux's {@code /proc} tells about a process without touching it: owner, command line, environment, whether a
 * JVM is loaded in it and whether it handles SIGQUIT yet. Each method returns null (or false) when the information is
 * not readable; other users' processes mostly show only their owner and command line.
 */
final class ProcFs {

    private static final int SIGQUIT = 3;

    private final Path root;

    ProcFs(Path root) {
        this.root = root;
    }

    /** {@code /proc} when this is a Linux system with a mounted procfs; null elsewhere. */
    static ProcFs system() {
        Path proc = Paths.get("/proc");
        return Files.isDirectory(proc.resolve("self")) && Files.isRegularFile(proc.resolve("self").resolve("cmdline"))
                ? new ProcFs(proc) : null;
    }

    /** The procfs mount this reads, normally {@code /proc}. */
    Path root() {
        return root;
    }

    private Path dir(long pid) {
        return root.resolve(Long.toString(pid));
    }

    boolean exists(long pid) {
        return Files.isDirectory(dir(pid));
    }

    /** The pids of every process, in ascending order. */
    List<Long> pids() {
        List<Long> pids = new ArrayList<Long>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (isDigits(name)) {
                    pids.add(Long.valueOf(name));
                }
            }
        } catch (IOException e) {
            return pids;
        }
        Collections.sort(pids);
        return pids;
    }

    /** The owner's uid, or -1 when the process is gone. */
    int uid(long pid) {
        return uidOf(dir(pid));
    }

    int selfUid() {
        return uidOf(root.resolve("self"));
    }

    private static int uidOf(Path path) {
        try {
            return ((Number) Files.getAttribute(path, "unix:uid")).intValue();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The owner's user name, or the uid as text when it has no name. */
    String userName(long pid) {
        try {
            return Files.getOwner(dir(pid)).getName();
        } catch (IOException | RuntimeException e) {
            return "uid " + uid(pid);
        }
    }

    String selfUserName() {
        try {
            return Files.getOwner(root.resolve("self")).getName();
        } catch (IOException | RuntimeException e) {
            return System.getProperty("user.name");
        }
    }

    /** The command line, argv[0] first; empty for a kernel thread or a vanished process. */
    List<String> cmdline(long pid) {
        byte[] bytes = read(dir(pid).resolve("cmdline"));
        return bytes == null ? Collections.<String>emptyList() : splitNul(bytes);
    }

    /** The environment the process started with; null when not readable (another user's process). */
    Map<String, String> environ(long pid) {
        byte[] bytes = read(dir(pid).resolve("environ"));
        if (bytes == null) {
            return null;
        }
        Map<String, String> env = new HashMap<String, String>();
        for (String entry : splitNul(bytes)) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return env;
    }

    /** What kind of JVM is loaded in the process according to its memory maps: HOTSPOT, J9, NONE, or null when unreadable. */
    JvmKind jvmKind(long pid) {
        byte[] bytes = read(dir(pid).resolve("maps"));
        if (bytes == null) {
            return null;
        }
        String maps = new String(bytes, StandardCharsets.ISO_8859_1);
        if (maps.contains("/libjvm.so")) {
            return JvmKind.HOTSPOT;
        }
        if (maps.contains("/libj9vm")) {
            return JvmKind.J9;
        }
        return JvmKind.NONE;
    }

    enum JvmKind { HOTSPOT, J9, NONE }

    /**
     * Whether the process has a handler for SIGQUIT, which HotSpot's Attach API sends to start the target's attach
     * listener: a JVM installs it early in its start-up unless it runs with {@code -Xrs}. The JDK makes the same check
     * before signalling, because SIGQUIT kills a process that does not handle it. Null when unreadable.
     */
    Boolean catchesSigquit(long pid) {
        String mask = statusField(pid, "SigCgt:");
        if (mask == null) {
            return null;
        }
        try {
            long bits = Long.parseUnsignedLong(mask.trim(), 16);
            return (bits & (1L << (SIGQUIT - 1))) != 0;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The pid of the process in its own pid namespace (differs from {@code pid} inside a container). */
    long namespacePid(long pid) {
        String nspid = statusField(pid, "NSpid:");
        if (nspid == null) {
            return pid;
        }
        String[] ids = nspid.trim().split("\\s+");
        try {
            return Long.parseLong(ids[ids.length - 1]);
        } catch (NumberFormatException e) {
            return pid;
        }
    }

    /** Whether the target JVM's HotSpot attach listener already runs, so attaching to it sends no signal at all. */
    boolean hasAttachListener(long pid) {
        return Files.exists(dir(pid).resolve("root").resolve("tmp").resolve(".java_pid" + namespacePid(pid)));
    }

    /** The string counters of the JVM's perf data ({@link HsPerfData}); empty when it publishes none or it is unreadable. */
    Map<String, String> perfData(long pid) {
        Path file = HsPerfData.locate(root, pid, namespacePid(pid), userName(pid));
        return file == null ? new HashMap<String, String>() : HsPerfData.readStrings(file);
    }

    /** The process start time in clock ticks since boot: with the pid, it names a process even after pid reuse. */
    long startTime(long pid) {
        byte[] bytes = read(dir(pid).resolve("stat"));
        if (bytes == null) {
            return -1;
        }
        String stat = new String(bytes, StandardCharsets.ISO_8859_1);
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        String[] fields = stat.substring(close + 2).split(" ");
        // after the command come: state(3) ppid(4) ... starttime(22), so index 22 - 3 = 19
        try {
            return fields.length > 19 ? Long.parseLong(fields[19]) : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private String statusField(long pid, String name) {
        byte[] bytes = read(dir(pid).resolve("status"));
        if (bytes == null) {
            return null;
        }
        for (String line : new String(bytes, StandardCharsets.ISO_8859_1).split("\n")) {
            if (line.startsWith(name)) {
                return line.substring(name.length());
            }
        }
        return null;
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    static List<String> splitNul(byte[] bytes) {
        List<String> parts = new ArrayList<String>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                parts.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < bytes.length) {
            parts.add(new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8));
        }
        return parts;
    }

    private static boolean isDigits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
