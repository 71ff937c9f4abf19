package dev.apmagent.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service name rules: what the APM Server accepts ({@code ^[a-zA-Z0-9 _-]+$}, at most 1024 characters), and
 * how a name is derived when {@code service_name} is not configured, from the {@code sun.java.command} system
 * property (main class, module/main class, or jar file). Pure functions; start-up only.
 */
public final class ServiceNames {

    public static final String FALLBACK = "unknown-java-service";
    static final int MAX_LENGTH = 1024;

    /** A trailing version in a jar name: -1.2, -1.2.3, -1.0-SNAPSHOT, -2.7.3.RELEASE. */
    private static final Pattern JAR_VERSION = Pattern.compile("^(.+?)-\\d+(\\.\\d+)+([.-][A-Za-z0-9]+)*$");

    /** Application servers whose main class says nothing about the application. */
    private static final String[][] CONTAINERS = {
            {"org.apache.catalina.startup.Bootstrap", "tomcat-application"},
            {"org.eclipse.jetty.start.Main", "jetty-application"},
            {"start.jar", "jetty-application"},
            {"org.jboss.modules.Main", "jboss-application"},
            {"jboss-modules.jar", "jboss-application"},
            {"weblogic.Server", "weblogic-application"},
            {"com.ibm.ws.runtime.WsServer", "websphere-application"},
            {"com.sun.enterprise.glassfish.bootstrap.ASMain", "glassfish-application"},
    };

    /** Validates a configured service_name (the parser of the service_name option). */
    public static final ConfigOption.ValueParser<String> PARSER = new ConfigOption.ValueParser<String>() {
        @Override
        public String parse(String raw) {
            String v = raw.trim();
            if (v.length() > MAX_LENGTH) {
                throw new IllegalArgumentException("longer than " + MAX_LENGTH + " characters");
            }
            for (int i = 0; i < v.length(); i++) {
                if (!isAllowed(v.charAt(i))) {
                    throw new IllegalArgumentException("only letters, digits, spaces, '_' and '-' are allowed (the APM Server rejects '"
                            + v.charAt(i) + "')");
                }
            }
            return v;
        }
    };

    private ServiceNames() {
    }

    /** The service name for a JVM started with this {@code sun.java.command}; {@link #FALLBACK} when none fits. */
    public static String derive(String sunJavaCommand) {
        if (sunJavaCommand == null) {
            return FALLBACK;
        }
        String command = sunJavaCommand.trim();
        if (command.isEmpty()) {
            return FALLBACK;
        }
        int space = indexOfWhitespace(command);
        String first = space < 0 ? command : command.substring(0, space);
        String jar = null;
        if (endsWithJar(first)) {
            jar = first;
        } else if (looksLikePath(first)) {
            // a jar path with spaces in it: "/opt/my app/app.jar --port 1"
            int end = indexOfJarEnd(command);
            if (end > 0) {
                jar = command.substring(0, end);
            }
        }
        String name;
        if (jar != null) {
            String file = jar.substring(Math.max(jar.lastIndexOf('/'), jar.lastIndexOf('\\')) + 1);
            String container = container(file);
            if (container != null) {
                return container;
            }
            name = stripVersion(file.substring(0, file.length() - ".jar".length()));
        } else {
            String mainClass = first.substring(first.lastIndexOf('/') + 1); // module/main.Class
            String container = container(mainClass);
            if (container != null) {
                return container;
            }
            name = mainClass.substring(mainClass.lastIndexOf('.') + 1);
        }
        String sanitized = sanitize(name);
        return sanitized.isEmpty() ? FALLBACK : sanitized;
    }

    /**
     * Replaces every character outside {@code [a-zA-Z0-9 _-]} with '-', trims, and cuts to 1024 characters;
     * an empty result stays empty.
     */
    public static String sanitize(String name) {
        String trimmed = name.trim();
        StringBuilder sb = new StringBuilder(trimmed.length());
        for (int i = 0; i < trimmed.length() && sb.length() < MAX_LENGTH; i++) {
            char c = trimmed.charAt(i);
            sb.append(isAllowed(c) ? c : '-');
        }
        return sb.toString().trim();
    }

    static boolean isAllowed(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' || c == '_' || c == '-';
    }

    static String stripVersion(String jarBaseName) {
        Matcher m = JAR_VERSION.matcher(jarBaseName);
        return m.matches() ? m.group(1) : jarBaseName;
    }

    private static String container(String mainClassOrJarFile) {
        for (String[] c : CONTAINERS) {
            if (c[0].equals(mainClassOrJarFile)) {
                return c[1];
            }
        }
        return null;
    }

    /** Absolute or explicitly relative file paths; "module/main.Class" is not one. */
    private static boolean looksLikePath(String s) {
        char c = s.charAt(0);
        if (c == '/' || c == '\\' || c == '.' || c == '~') {
            return true;
        }
        return s.length() > 2 && s.charAt(1) == ':' && (s.charAt(2) == '\\' || s.charAt(2) == '/');
    }

    private static boolean endsWithJar(String s) {
        return s.length() > ".jar".length() && s.toLowerCase(Locale.ROOT).endsWith(".jar");
    }

    /** End index of the first ".jar" that is followed by whitespace or the end, or -1. */
    private static int indexOfJarEnd(String command) {
        String lower = command.toLowerCase(Locale.ROOT);
        int from = 0;
        while (true) {
            int at = lower.indexOf(".jar", from);
            if (at < 0) {
                return -1;
            }
            int end = at + ".jar".length();
            if (end == lower.length() || Character.isWhitespace(lower.charAt(end))) {
                return end;
            }
            from = at + 1;
        }
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }
}
