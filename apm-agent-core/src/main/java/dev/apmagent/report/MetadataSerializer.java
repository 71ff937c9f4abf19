package dev.apmagent.report;

import dev.apmagent.config.Config;
import dev.apmagent.config.CoreOptions;
import dev.apmagent.config.ProcessArgs;
import dev.apmagent.config.ServiceNames;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.trace.HttpOptions;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Serializes the {@code {"metadata":...}} line that opens every request (and the output file). It is built once, on
 * the reporter thread (host name detection may touch DNS, which must not delay start-up), and reused as bytes.
 *
 * <p>Agent name: we send {@code "java"}, the name of Elastic's Java agent, with our own version. The APM UI keys its
 * language-specific behaviour on {@code agent.name} (the Java icon, JVM metric dashboards, stack-frame rendering,
 * agent-specific config in Kibana); users who swap the jar expect all of that to keep working, and
 * {@code service.agent.version} tells the two agents apart for anyone who needs to.
 */
public final class MetadataSerializer {

    /** The agent name the APM UI recognises as a Java agent. */
    public static final String AGENT_NAME = "java";

    private static final Logger log = AgentLog.get(MetadataSerializer.class);

    private static final byte[] METADATA = JsonHelper.name("metadata");
    private static final byte[] SERVICE = JsonHelper.name("service");
    private static final byte[] NAME = JsonHelper.name("name");
    private static final byte[] VERSION = JsonHelper.name("version");
    private static final byte[] ENVIRONMENT = JsonHelper.name("environment");
    private static final byte[] AGENT = JsonHelper.name("agent");
    private static final byte[] EPHEMERAL_ID = JsonHelper.name("ephemeral_id");
    private static final byte[] LANGUAGE = JsonHelper.name("language");
    private static final byte[] RUNTIME = JsonHelper.name("runtime");
    private static final byte[] PROCESS = JsonHelper.name("process");
    private static final byte[] PID = JsonHelper.name("pid");
    private static final byte[] PPID = JsonHelper.name("ppid");
    private static final byte[] TITLE = JsonHelper.name("title");
    private static final byte[] ARGV = JsonHelper.name("argv");
    private static final byte[] SYSTEM = JsonHelper.name("system");
    private static final byte[] ARCHITECTURE = JsonHelper.name("architecture");
    private static final byte[] DETECTED_HOSTNAME = JsonHelper.name("detected_hostname");
    private static final byte[] CONFIGURED_HOSTNAME = JsonHelper.name("configured_hostname");
    private static final byte[] PLATFORM = JsonHelper.name("platform");

    private MetadataSerializer() {
    }

    /** What the metadata line describes; {@link #detect} fills it from the JVM and the configuration. */
    public static final class Info {
        String serviceName;
        String serviceVersion;
        String environment;
        String agentVersion;
        String ephemeralId;
        String javaVersion;
        String runtimeName;
        long pid;
        long ppid;
        String title;
        List<String> argv;
        String architecture;
        String platform;
        String detectedHostname;
        String configuredHostname;

        public String serviceName() {
            return serviceName;
        }

        public String agentVersion() {
            return agentVersion;
        }
    }

    public static Info detect(Config config, boolean includeProcessArgs) {
        Info info = new Info();
        info.serviceName = serviceName(config.get(CoreOptions.SERVICE_NAME), System.getProperty("sun.java.command"));
        info.serviceVersion = config.get(CoreOptions.SERVICE_VERSION);
        info.environment = config.get(CoreOptions.ENVIRONMENT);
        info.agentVersion = agentVersion();
        info.ephemeralId = UUID.randomUUID().toString();
        info.javaVersion = System.getProperty("java.version", "unknown");
        info.runtimeName = "Java";
        info.pid = currentPid();
        info.ppid = parentPid();
        info.title = new File(System.getProperty("java.home", ""), "bin" + File.separator + "java").getPath();
        info.argv = includeProcessArgs ? ProcessArgs.redact(processArgs(), config.get(HttpOptions.SANITIZE_FIELD_NAMES),
                ProcessArgs.secretKeys(config.registeredOptions())) : null;
        info.architecture = System.getProperty("os.arch");
        info.platform = System.getProperty("os.name");
        info.configuredHostname = config.get(CoreOptions.HOSTNAME);
        info.detectedHostname = info.configuredHostname != null ? null : detectHostname();
        return info;
    }

    /** The complete metadata line, newline included. */
    public static byte[] serialize(Info info) {
        JsonHelper h = new JsonHelper(2048);
        h.startObject();
        h.field(METADATA);
        h.startObject();

        h.field(SERVICE);
        h.startObject();
        h.field(NAME);
        h.string(info.serviceName);
        if (info.serviceVersion != null) {
            h.field(VERSION);
            h.string(info.serviceVersion);
        }
        if (info.environment != null) {
            h.field(ENVIRONMENT);
            h.string(info.environment);
        }
        h.field(AGENT);
        h.startObject();
        h.field(NAME);
        h.string(AGENT_NAME);
        h.field(VERSION);
        h.string(info.agentVersion);
        h.field(EPHEMERAL_ID);
        h.string(info.ephemeralId);
        h.endObject();
        h.field(LANGUAGE);
        h.startObject();
        h.field(NAME);
        h.string("Java");
        h.field(VERSION);
        h.string(info.javaVersion);
        h.endObject();
        h.field(RUNTIME);
        h.startObject();
        h.field(NAME);
        h.string(info.runtimeName);
        h.field(VERSION);
        h.string(info.javaVersion);
        h.endObject();
        h.endObject();

        h.field(PROCESS);
        h.startObject();
        h.field(PID);
        h.number(info.pid);
        if (info.ppid > 0) {
            h.field(PPID);
            h.number(info.ppid);
        }
        h.field(TITLE);
        h.string(info.title);
        if (info.argv != null) {
            h.field(ARGV);
            h.startArray();
            for (int i = 0; i < info.argv.size(); i++) {
                h.string(info.argv.get(i));
            }
            h.endArray();
        }
        h.endObject();

        h.field(SYSTEM);
        h.startObject();
        h.field(ARCHITECTURE);
        h.string(info.architecture);
        if (info.configuredHostname != null) {
            h.field(CONFIGURED_HOSTNAME);
            h.string(info.configuredHostname);
        } else {
            h.field(DETECTED_HOSTNAME);
            h.string(info.detectedHostname);
        }
        h.field(PLATFORM);
        h.string(info.platform);
        h.endObject();

        h.endObject();
        h.endObject();
        h.newLine();
        return Arrays.copyOf(h.buffer(), h.size());
    }

    /** The agent's version (one source for it: {@link AgentVersion}). */
    public static String agentVersion() {
        return AgentVersion.get();
    }

    /**
     * The configured service name, or one derived from the main class or jar, by the one rule of {@link ServiceNames}
     * (the configuration's parser already rejected a name the APM Server would not accept).
     */
    static String serviceName(String configured, String javaCommand) {
        String name = configured == null ? "" : ServiceNames.sanitize(configured);
        return name.isEmpty() ? ServiceNames.derive(javaCommand) : name;
    }

    static long currentPid() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        int at = name.indexOf('@');
        try {
            return Long.parseLong(at > 0 ? name.substring(0, at) : name);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static long parentPid() {
        try {
            // Java 9+: ProcessHandle.current().parent().map(ProcessHandle::pid); through reflection for --release 8
            Class<?> handle = Class.forName("java.lang.ProcessHandle");
            Object current = handle.getMethod("current").invoke(null);
            Object parent = handle.getMethod("parent").invoke(current);
            Method isPresent = parent.getClass().getMethod("isPresent");
            if ((Boolean) isPresent.invoke(parent)) {
                Object p = parent.getClass().getMethod("get").invoke(parent);
                return (Long) handle.getMethod("pid").invoke(p);
            }
        } catch (Exception | LinkageError ignored) {
            // Java 8: fall through to /proc
        }
        File stat = new File("/proc/self/stat");
        if (stat.canRead()) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(new FileInputStream(stat), StandardCharsets.US_ASCII))) {
                String line = r.readLine();
                int close = line == null ? -1 : line.lastIndexOf(')');
                if (close > 0) {
                    String[] parts = line.substring(close + 2).split(" ");
                    return Long.parseLong(parts[1]);
                }
            } catch (IOException | RuntimeException ignored) {
                // unknown
            }
        }
        return 0;
    }

    private static List<String> processArgs() {
        try {
            return ManagementFactory.getRuntimeMXBean().getInputArguments();
        } catch (RuntimeException e) {
            return Collections.emptyList();
        }
    }

    static String detectHostname() {
        String env = System.getenv("HOSTNAME");
        if (env == null || env.isEmpty()) {
            env = System.getenv("COMPUTERNAME");
        }
        if (env != null && !env.trim().isEmpty()) {
            return env.trim().toLowerCase(Locale.ROOT);
        }
        for (String path : new String[] {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
            File f = new File(path);
            if (f.canRead()) {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(new FileInputStream(f), StandardCharsets.UTF_8))) {
                    String line = r.readLine();
                    if (line != null && !line.trim().isEmpty()) {
                        return line.trim();
                    }
                } catch (IOException ignored) {
                    // try the next source
                }
            }
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            log.debug("could not detect the host name: {}", e.toString());
            return "unknown";
        }
    }
}
