package dev.apmagent.report;

import java.io.InputStream;
import java.util.Properties;

/** The agent's version, from {@code dev/apmagent/version.properties} written by the build. */
public final class AgentVersion {

    private static final String VERSION = read();

    private AgentVersion() {
    }

    public static String get() {
        return VERSION;
    }

    private static String read() {
        try {
            InputStream in = AgentVersion.class.getResourceAsStream("/dev/apmagent/version.properties");
            if (in == null) {
                return "unknown";
            }
            try {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version");
                return version == null || version.startsWith("$") ? "unknown" : version.trim();
            } finally {
                in.close();
            }
        } catch (Exception e) {
            return "unknown";
        }
    }
}
