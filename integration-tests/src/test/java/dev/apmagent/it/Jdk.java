package dev.apmagent.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDKs every forked-JVM test runs the agent on: the one running the build (JDK 17) and the Temurin JDK 25
 * (system property {@code apm.jdk25.home}). A missing JDK 25 fails the test in CI and skips it elsewhere.
 */
public final class Jdk {

    private final String name;
    private final Path home;
    private final int feature;

    private Jdk(int feature, Path home) {
        this.name = "jdk" + feature;
        this.home = home;
        this.feature = feature;
    }

    /** Whether this JDK has virtual threads (21 and later). */
    public boolean hasVirtualThreads() {
        return feature >= 21;
    }

    public Path javaExecutable() {
        return home.resolve("bin").resolve("java");
    }

    public Path home() {
        return home;
    }

    @Override
    public String toString() {
        return name;
    }

    /** The JDKs to run on, for {@code @MethodSource}. */
    public static List<Jdk> all() {
        List<Jdk> jdks = new ArrayList<>();
        jdks.add(new Jdk(Runtime.version().feature(), Paths.get(System.getProperty("java.home"))));
        String jdk25 = System.getProperty("apm.jdk25.home", "/usr/lib/jvm/temurin-25-jdk-amd64");
        Path home25 = Paths.get(jdk25);
        if (Files.isExecutable(home25.resolve("bin").resolve("java"))) {
            jdks.add(new Jdk(25, home25));
        } else if (TestPaths.isCi()) {
            throw new IllegalStateException("JDK 25 is required in CI but missing at " + home25);
        } else {
            System.err.println("JDK 25 not found at " + home25 + ": forked-JVM tests run on the build JDK only");
        }
        return jdks;
    }
}
