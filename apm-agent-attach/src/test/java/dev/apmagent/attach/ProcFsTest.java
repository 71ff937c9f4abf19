package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ProcFsTest {

    @ParameterizedTest
    @CsvSource({
            "0000000000000004, true",
            "0000000184004a07, true",
            "0000000000004000, false",
            "0000000000000000, false",
            "zz, ",
    })
    void sigquitHandlerFromTheCaughtSignalMask(String mask, Boolean catches, @TempDir Path proc) throws Exception {
        Path dir = Files.createDirectories(proc.resolve("42"));
        Files.write(dir.resolve("status"), ("Name:\tjava\nSigBlk:\t0000000000000004\nSigCgt:\t" + mask + "\nNSpid:\t42\t7\n")
                .getBytes(StandardCharsets.US_ASCII));
        ProcFs procFs = new ProcFs(proc);
        assertThat(procFs.catchesSigquit(42)).isEqualTo(catches);
        assertThat(procFs.namespacePid(42)).isEqualTo(7);
        assertThat(procFs.catchesSigquit(43)).isNull();
    }

    @Test
    void fakeProcessDetails(@TempDir Path proc) throws Exception {
        Path dir = Files.createDirectories(proc.resolve("100"));
        Files.createDirectories(proc.resolve("self"));
        Files.createDirectories(proc.resolve("not-a-pid"));
        Files.createDirectories(proc.resolve("7"));
        Files.write(dir.resolve("cmdline"), "java\0-Xmx1g\0Main\0a b\0".getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("environ"), "A=1\0JAVA_TOOL_OPTIONS=-Dx=y\0BROKEN\0".getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("maps"), ("7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/jvm/java-17/lib/server/libjvm.so\n")
                .getBytes(StandardCharsets.US_ASCII));
        Files.write(proc.resolve("7").resolve("maps"), "7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/libc.so.6\n".getBytes(StandardCharsets.US_ASCII));
        Files.write(dir.resolve("stat"), "100 (java (x) y) S 1 100 100 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 30 0 98765 1 2\n"
                .getBytes(StandardCharsets.US_ASCII));
        ProcFs procFs = new ProcFs(proc);
        assertThat(procFs.pids()).containsExactly(7L, 100L);
        assertThat(procFs.cmdline(100)).containsExactly("java", "-Xmx1g", "Main", "a b");
        assertThat(procFs.environ(100)).containsEntry("A", "1").containsEntry("JAVA_TOOL_OPTIONS", "-Dx=y").hasSize(2);
        assertThat(procFs.jvmKind(100)).isEqualTo(ProcFs.JvmKind.HOTSPOT);
        assertThat(procFs.jvmKind(7)).isEqualTo(ProcFs.JvmKind.NONE);
        assertThat(procFs.jvmKind(8)).isNull();
        assertThat(procFs.startTime(100)).isEqualTo(98765);
        assertThat(procFs.environ(7)).isNull();
        assertThat(procFs.exists(7)).isTrue();
        assertThat(procFs.exists(8)).isFalse();
    }

    @Test
    void realProcesses() throws Exception {
        ProcFs procFs = ProcFs.system();
        assumeTrue(procFs != null, "no /proc: not Linux");
        long self = ProcessHandle.current().pid();
        assertThat(procFs.exists(self)).isTrue();
        assertThat(procFs.uid(self)).isEqualTo(procFs.selfUid()).isGreaterThanOrEqualTo(0);
        assertThat(procFs.jvmKind(self)).isEqualTo(ProcFs.JvmKind.HOTSPOT);
        assertThat(procFs.catchesSigquit(self)).isTrue();
        assertThat(procFs.startTime(self)).isPositive();
        assertThat(procFs.cmdline(self).get(0)).endsWith("java");
        assertThat(procFs.pids()).contains(self);

        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            assertThat(procFs.jvmKind(sleep.pid())).isEqualTo(ProcFs.JvmKind.NONE);
            assertThat(procFs.catchesSigquit(sleep.pid())).isFalse();
            assertThat(procFs.cmdline(sleep.pid())).containsExactly("sleep", "60");
        } finally {
            sleep.destroy();
            sleep.waitFor();
        }
        assertThat(procFs.exists(sleep.pid())).isFalse();
    }
}
