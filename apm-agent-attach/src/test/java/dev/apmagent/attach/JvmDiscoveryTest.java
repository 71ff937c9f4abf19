package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Discovery over a fake /proc: which processes are JVMs, and how repeated discoveries reuse what they found. */
class JvmDiscoveryTest {

    private static final String LIBJVM = "7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/jvm/17/lib/server/libjvm.so\n";
    private static final String LIBC = "7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n";

    @TempDir
    Path proc;

    private void process(long pid, String cmdline, String maps, long startTime) throws Exception {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.write(dir.resolve("cmdline"), (cmdline.replace(' ', '\0') + "\0").getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("maps"), maps.getBytes(StandardCharsets.US_ASCII));
        Files.write(dir.resolve("stat"), (pid + " (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 " + startTime + " 0 0\n")
                .getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void findsJvmsByTheirJvmLibraryAndLooksAgainOnlyWhenAProcessChanged() throws Exception {
        Files.createDirectories(proc.resolve("self"));
        process(100, "java -Xmx1g com.example.App a", LIBJVM, 5);
        process(200, "/bin/sh start.sh", LIBC, 6);
        process(300, "java -jar app.jar", LIBC, 7);   // a launcher that has not loaded the JVM library yet
        process(400, "java Self", LIBJVM, 8);
        JvmDiscovery discovery = new JvmDiscovery(new ProcFs(proc), null, 400);

        assertThat(discovery.discover()).extracting(Object::toString).containsExactly("100 com.example.App");

        // the shell script execs java: same pid and start time, another command line
        process(200, "java -cp x org.Server", LIBJVM, 6);
        // the launcher has loaded the JVM
        process(300, "java -jar app.jar", LIBJVM, 7);
        // a known JVM is not read again (its maps no longer show the library, its identity is unchanged)
        process(100, "java -Xmx1g com.example.App a", LIBC, 5);
        assertThat(discovery.discover()).extracting(Object::toString)
                .containsExactly("100 com.example.App", "200 org.Server", "300 app.jar");

        // other attach commands and byte-buddy-agent's attach helper are left out
        process(500, "java -jar /opt/apm-agent.jar attach --continuous --include-all", LIBJVM, 10);
        process(501, "java -cp /opt/apm-agent.jar dev.apmagent.shaded.net.bytebuddy.agent.Attacher x 12 /opt/apm-agent.jar false", LIBJVM, 11);
        process(502, "java -jar /opt/apm-agent.jar view events.ndjson", LIBJVM, 12);
        assertThat(discovery.discover()).extracting(Object::toString)
                .containsExactly("100 com.example.App", "200 org.Server", "300 app.jar", "502 /opt/apm-agent.jar");
        Files.walk(proc.resolve("500")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        Files.walk(proc.resolve("501")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        Files.walk(proc.resolve("502")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());

        // pid 100 is reused by another process: a new start time
        process(100, "java -Xmx1g com.example.App a", LIBC, 9);
        assertThat(discovery.discover()).extracting(Object::toString).containsExactly("200 org.Server", "300 app.jar");
    }
}
