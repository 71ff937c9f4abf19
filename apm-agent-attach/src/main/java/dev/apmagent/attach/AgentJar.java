package dev.apmagent.attach;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.security.CodeSource;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/** Finds and checks the agent jar: a readable jar whose manifest names the agent's {@code Agent-Class}. */
final class AgentJar {

    static final String AGENT_CLASS = "dev.apmagent.bootstrap.AgentMain";

    private AgentJar() {
    }

    /** The jar a class was loaded from, when it is the agent jar; null otherwise (a directory, another jar, unknown). */
    static File ofClass(Class<?> type) {
        try {
            CodeSource codeSource = type.getProtectionDomain().getCodeSource();
            URL location = codeSource == null ? null : codeSource.getLocation();
            if (location == null || !"file".equals(location.getProtocol())) {
                return null;
            }
            File file = new File(location.toURI());
            return problem(file) == null ? file : null;
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** What is wrong with a file given as the agent jar, or null when it is one. */
    static String problem(File file) {
        if (!file.isFile()) {
            return file + " does not exist or is not a file";
        }
        if (!file.canRead()) {
            return file + " is not readable";
        }
        try (JarFile jar = new JarFile(file, false)) {
            Manifest manifest = jar.getManifest();
            String agentClass = manifest == null ? null : manifest.getMainAttributes().getValue(new Attributes.Name("Agent-Class"));
            if (!AGENT_CLASS.equals(agentClass)) {
                return file + " is not the apm-agent jar (its manifest has no Agent-Class: " + AGENT_CLASS + ")";
            }
            return null;
        } catch (IOException e) {
            return file + " is not a jar: " + e.getMessage();
        }
    }

    /**
     * The agent jar to load: the explicit one when given, else the jar {@code type} was loaded from, else the one named
     * by the system property. Fails with a message that says where it looked.
     */
    static File locate(File explicit, Class<?> type, String propertyName) throws AttachFailure {
        if (explicit != null) {
            String problem = problem(explicit);
            if (problem != null) {
                throw new AttachFailure(ExitCode.SETUP, "agent jar: " + problem);
            }
            return explicit.getAbsoluteFile();
        }
        File own = ofClass(type);
        if (own != null) {
            return own.getAbsoluteFile();
        }
        String property = System.getProperty(propertyName);
        if (property != null && !property.trim().isEmpty()) {
            File fromProperty = new File(property.trim());
            String problem = problem(fromProperty);
            if (problem != null) {
                throw new AttachFailure(ExitCode.SETUP, "agent jar from system property " + propertyName + ": " + problem);
            }
            return fromProperty.getAbsoluteFile();
        }
        throw new AttachFailure(ExitCode.SETUP, "cannot find the agent jar: " + type.getName() + " was not loaded from apm-agent.jar ("
                + describeLocation(type) + "); give the jar explicitly (--agent-jar PATH, or -D" + propertyName + "=PATH)");
    }

    private static String describeLocation(Class<?> type) {
        try {
            CodeSource codeSource = type.getProtectionDomain().getCodeSource();
            return codeSource == null || codeSource.getLocation() == null ? "no code source" : "loaded from " + codeSource.getLocation();
        } catch (RuntimeException e) {
            return "no code source";
        }
    }
}
