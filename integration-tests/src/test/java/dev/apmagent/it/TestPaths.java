package dev.apmagent.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Where the integration tests find the agent jar, their own classes, extra libraries and ../shared. */
public final class TestPaths {

    private TestPaths() {
    }

    public static boolean isCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    public static Path agentJar() {
        Path jar = Paths.get(required("apm.agent.jar")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("agent jar not built: " + jar + " (run ./mvnw -B verify from the project root)");
        }
        return jar;
    }

    public static Path testClasses() {
        return Paths.get(required("apm.test.classes"));
    }

    public static Path isolationLibs() {
        return Paths.get(required("apm.isolation.libs"));
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("system property " + property + " is not set; run the tests through Maven");
        }
        return value;
    }
}
