package dev.apmagent.attach;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * The configuration handed to an attached agent: written to a temporary properties file that only its owner can read
 * (the target runs as the same user, see {@link TargetAttacher}) and passed as the single agent argument
 * {@code config_file=<path>}. Agent arguments stay short that way: long ones break some attach mechanisms, and
 * values with commas could not be passed in {@code key=value,key=value} form at all.
 */
final class AgentConfigFile {

    static final String OPTION = "config_file";

    private AgentConfigFile() {
    }

    /** Reads a properties file of options ({@code --args-file}); keys and values are trimmed. */
    static Map<String, String> read(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file); Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> values = new TreeMap<String, String>();
        for (String key : properties.stringPropertyNames()) {
            values.put(key.trim(), properties.getProperty(key).trim());
        }
        return values;
    }

    /** The properties-file text of a configuration, keys in the given order. */
    static String format(Map<String, String> config, String comment) {
        StringWriter out = new StringWriter();
        try {
            store(config, comment, out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }

    private static void store(Map<String, String> config, String comment, Writer out) throws IOException {
        // Properties escapes '=', ':', '#', '!', backslashes and non-Latin-1 characters so any value survives a load
        Properties properties = new Properties();
        properties.putAll(config);
        properties.store(out, comment);
    }

    /**
     * Writes the configuration to a new temporary file readable and writable by its owner only (0600 on POSIX file
     * systems) and returns its path. The path goes into a {@code key=value,...} agent argument, so it must not contain
     * a comma.
     */
    static Path write(Map<String, String> config, String comment) throws AttachFailure {
        return write(Paths.get(System.getProperty("java.io.tmpdir")), config, comment);
    }

    /** Like {@link #write(Map, String)}, in the given directory. */
    static Path write(Path directory, Map<String, String> config, String comment) throws AttachFailure {
        Path file;
        try {
            boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
            Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
            FileAttribute<?>[] attributes = posix
                    ? new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(ownerOnly)}
                    : new FileAttribute<?>[0];
            file = Files.createTempFile(directory, "apm-agent-attach-", ".properties", attributes).toAbsolutePath();
            if (posix) {
                Files.setPosixFilePermissions(file, ownerOnly);
            }
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                store(new LinkedHashMap<String, String>(config), comment, out);
            }
        } catch (IOException | RuntimeException e) {
            throw new AttachFailure(ExitCode.SETUP, "cannot write the agent's configuration to a temporary file in "
                    + directory + ": " + e, e);
        }
        return file;
    }

    /**
     * The agent argument that points the agent at a configuration file, given by its path as the target sees it.
     * Agent arguments are {@code key=value,key=value}, so the path must not contain a comma.
     */
    static String agentArgument(String targetPath) throws AttachFailure {
        if (targetPath.indexOf(',') >= 0) {
            throw new AttachFailure(ExitCode.SETUP, "the temporary configuration file's path contains a comma, which agent"
                    + " arguments cannot carry: " + targetPath + "; run the command with -Djava.io.tmpdir=<another directory>");
        }
        return OPTION + "=" + targetPath;
    }

    static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover 0600 file in the temp directory; nothing better to do
        }
    }

    static Map<String, String> merge(Map<String, String> base, Map<String, String> overrides) {
        Map<String, String> merged = new LinkedHashMap<String, String>(base);
        merged.putAll(overrides);
        return Collections.unmodifiableMap(merged);
    }
}
