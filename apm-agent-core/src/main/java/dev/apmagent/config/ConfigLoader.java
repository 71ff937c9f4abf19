package dev.apmagent.config;

import dev.apmagent.log.AgentLog;
import dev.apmagent.log.LogLevel;
import dev.apmagent.log.Logger;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.Charset;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Resolves every option once, at start-up, into an immutable {@link Config}. Sources, highest precedence first:
 * <ol>
 * <li>agent arguments ({@code -javaagent:apm-agent.jar=key=value,key=value}; see {@link AgentArguments} for the
 *     comma rule, {@code ;} also separates);</li>
 * <li>Java system properties {@code elastic.apm.<key>};</li>
 * <li>environment variables {@code ELASTIC_APM_<KEY>} (key upper-cased);</li>
 * <li>a properties file with plain keys: {@code config_file} (which only the three sources above can set) or else
 *     {@code elasticapm.properties} beside the agent jar;</li>
 * <li>the option's default.</li>
 * </ol>
 * A blank value counts as not set. An unknown key, a malformed value (the default is then used), an unreadable file
 * and the like each give exactly one warning line; the loader never throws. Values of sensitive options never
 * appear in warnings or in the effective-configuration dump. When service_name is not set (or invalid) it is
 * derived from {@code sun.java.command} by {@link ServiceNames#derive(String)}.
 *
 * <p>Nothing here reads the real environment: the caller passes the system properties, the environment and the
 * agent's directory, which keeps the loader testable.
 */
public final class ConfigLoader {

    public static final String SYSTEM_PROPERTY_PREFIX = "elastic.apm.";
    public static final String ENV_PREFIX = "ELASTIC_APM_";
    public static final String DEFAULT_CONFIG_FILE = "elasticapm.properties";
    public static final String AGENT_HOME_PLACEHOLDER = AgentLog.AGENT_HOME_PLACEHOLDER;
    static final String SUN_JAVA_COMMAND = "sun.java.command";
    private static final Charset UTF_8 = Charset.forName("UTF-8");

    private final OptionRegistry registry;
    private final List<String> warnings = new ArrayList<String>();
    /** The winning raw value per key; sources are offered highest precedence first, so the first offer wins. */
    private final Map<String, Setting> winners = new LinkedHashMap<String, Setting>();
    /** Every raw value of a sensitive option seen in any source, to mask in the log. */
    private final Set<String> secretValues = new HashSet<String>();

    private ConfigLoader(OptionRegistry registry) {
        this.registry = registry;
    }

    /** Loads with the options registered through the class loader that loaded this class. */
    public static Result load(String agentArgs, Map<String, String> systemProperties, Map<String, String> environment, File agentJarDir) {
        OptionRegistry registry;
        try {
            registry = OptionRegistry.load(ConfigLoader.class.getClassLoader());
        } catch (RuntimeException | LinkageError e) {
            registry = OptionRegistry.of(new CoreOptions());
        }
        return load(registry, agentArgs, systemProperties, environment, agentJarDir);
    }

    /**
     * Resolves the configuration; never throws.
     *
     * @param agentArgs        the text after {@code -javaagent:apm-agent.jar=}, or null
     * @param systemProperties the JVM's system properties (see {@link #systemProperties()}); also supplies
     *                         {@code sun.java.command} for the service name
     * @param environment      the process environment ({@code System.getenv()})
     * @param agentJarDir      the directory holding the agent jar ({@code _AGENT_HOME_}), or null when unknown
     */
    public static Result load(OptionRegistry registry, String agentArgs, Map<String, String> systemProperties,
                              Map<String, String> environment, File agentJarDir) {
        ConfigLoader loader = new ConfigLoader(registry);
        Map<String, String> sysProps = systemProperties == null ? Collections.<String, String>emptyMap() : systemProperties;
        Map<String, String> env = environment == null ? Collections.<String, String>emptyMap() : environment;
        try {
            return loader.run(agentArgs, sysProps, env, agentJarDir);
        } catch (RuntimeException | LinkageError e) {
            loader.warnings.add("The configuration could not be loaded (" + e.getClass().getName() + "); every option takes its default");
            Map<String, Object> values = new HashMap<String, Object>();
            values.put(CoreOptions.SERVICE_NAME.key(), ServiceNames.FALLBACK);
            return new Result(registry, Config.of(values, Collections.<String>emptySet(), registry.options()), loader.warnings,
                    Collections.<Setting>emptyList(), Collections.<String>emptySet(), agentJarDir, null);
        }
    }

    /** A snapshot of {@link System#getProperties()} as strings (start-up helper). */
    public static Map<String, String> systemProperties() {
        Map<String, String> map = new HashMap<String, String>();
        Properties p = System.getProperties();
        for (String name : p.stringPropertyNames()) {
            map.put(name, p.getProperty(name));
        }
        return map;
    }

    /** The directory of the jar (or classes directory) that holds {@code agentClass}, or null when unknown. */
    public static File agentJarDir(Class<?> agentClass) {
        try {
            CodeSource source = agentClass.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return null;
            }
            File location = new File(new URI(source.getLocation().toString()));
            return location.isFile() ? location.getParentFile() : location;
        } catch (Exception e) {
            return null;
        }
    }

    private Result run(String agentArgs, Map<String, String> sysProps, Map<String, String> env, File agentJarDir) {
        warnings.addAll(registry.warnings());

        Map<String, String> args = new LinkedHashMap<String, String>();
        for (AgentArguments.Pair pair : AgentArguments.parse(agentArgs, warnings)) {
            if (args.put(pair.key, pair.value) != null) {
                warnings.add("Agent argument " + pair.key + " is given more than once; the last one is used");
            }
        }
        for (Map.Entry<String, String> e : args.entrySet()) {
            offer(e.getKey(), e.getValue(), "agent argument " + e.getKey());
        }
        for (Map.Entry<String, String> e : new TreeMap<String, String>(sysProps).entrySet()) {
            String name = e.getKey();
            if (name.startsWith(SYSTEM_PROPERTY_PREFIX)) {
                offer(name.substring(SYSTEM_PROPERTY_PREFIX.length()).toLowerCase(Locale.ROOT), e.getValue(), "system property " + name);
            }
        }
        for (Map.Entry<String, String> e : new TreeMap<String, String>(env).entrySet()) {
            String name = e.getKey();
            if (name.startsWith(ENV_PREFIX)) {
                offer(name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT), e.getValue(), "environment variable " + name);
            }
        }
        readConfigFile(agentJarDir);

        Map<String, Object> values = new HashMap<String, Object>();
        Set<String> explicit = new HashSet<String>();
        List<Setting> applied = new ArrayList<Setting>();
        for (Setting s : winners.values()) {
            Object value = parse(s);
            if (value != null) {
                values.put(s.option.key(), value);
                explicit.add(s.option.key());
                applied.add(s);
            }
        }
        String derivedServiceName = null;
        if (!values.containsKey(CoreOptions.SERVICE_NAME.key())) {
            derivedServiceName = ServiceNames.derive(sysProps.get(SUN_JAVA_COMMAND));
            values.put(CoreOptions.SERVICE_NAME.key(), derivedServiceName);
        }
        return new Result(registry, Config.of(values, explicit, registry.options()), warnings, applied, secretValues, agentJarDir,
                derivedServiceName);
    }

    private void offer(String key, String raw, String origin) {
        ConfigOption<?> option = registry.option(key);
        if (option == null) {
            String hint = registry.closestKey(key);
            warnings.add("Unknown option " + key + " (" + origin + ") is ignored" + (hint == null ? "" : "; did you mean " + hint + "?"));
            return;
        }
        if (raw == null || raw.trim().isEmpty()) {
            return;
        }
        if (option.isSensitive()) {
            secretValues.add(raw);
            secretValues.add(raw.trim());
        }
        // credentials in a URL (server_url=http://user:password@host) are as secret as secret_token
        secretValues.addAll(UrlUserInfo.find(raw));
        if (!winners.containsKey(key)) {
            winners.put(key, new Setting(option, raw.trim(), origin));
        }
    }

    private void readConfigFile(File agentJarDir) {
        Setting configured = winners.get(CoreOptions.CONFIG_FILE.key());
        File file;
        if (configured != null) {
            String path = configured.raw;
            if (path.contains(AGENT_HOME_PLACEHOLDER)) {
                if (agentJarDir == null) {
                    warnings.add("config_file " + path + " uses " + AGENT_HOME_PLACEHOLDER
                            + " but the agent's directory is unknown; no configuration file is read");
                    return;
                }
                path = path.replace(AGENT_HOME_PLACEHOLDER, agentJarDir.getPath());
            }
            file = new File(path);
            if (!file.isFile()) {
                warnings.add("config_file " + path + " (" + configured.origin + ") does not exist or is not a file; no configuration file is read");
                return;
            }
        } else {
            if (agentJarDir == null) {
                return;
            }
            file = new File(agentJarDir, DEFAULT_CONFIG_FILE);
            if (!file.isFile()) {
                return;
            }
        }
        Properties properties = new Properties();
        try (Reader reader = new InputStreamReader(new FileInputStream(file), UTF_8)) {
            properties.load(reader);
        } catch (IOException | RuntimeException e) {
            warnings.add("Configuration file " + file.getPath() + " could not be read (" + e.getMessage() + "); it is ignored");
            return;
        }
        for (String name : new java.util.TreeSet<String>(properties.stringPropertyNames())) {
            String key = name.trim().toLowerCase(Locale.ROOT);
            if (key.startsWith(SYSTEM_PROPERTY_PREFIX)) {
                warnings.add("Keys in a configuration file have no prefix: write " + key.substring(SYSTEM_PROPERTY_PREFIX.length())
                        + " instead of " + key + " (file " + file.getPath() + "); it is ignored");
                continue;
            }
            if (key.equals(CoreOptions.CONFIG_FILE.key())) {
                warnings.add("config_file cannot be set in a configuration file (" + file.getPath() + "); it is ignored there");
                continue;
            }
            offer(key, properties.getProperty(name), "file " + file.getPath());
        }
    }

    /** The typed value, or null (with one warning) when the text does not parse. */
    private Object parse(Setting s) {
        ConfigOption<?> option = s.option;
        try {
            Object value = option.parse(s.raw);
            if (value == null) {
                throw new IllegalArgumentException("no value");
            }
            return value;
        } catch (RuntimeException e) {
            String reason = e instanceof IllegalArgumentException && e.getMessage() != null
                    ? e.getMessage() : "the parser failed with " + e.getClass().getName();
            if (option.isSensitive()) {
                reason = reason.replace(s.raw, ConfigOption.REDACTED);
            }
            String fallback = option.defaultText() == null ? ""
                    : option.defaultText().isEmpty() ? " (empty)" : " " + option.display(option.defaultText());
            warnings.add("Invalid value '" + option.display(s.raw) + "' for " + option.key() + " (" + s.origin + "): " + reason
                    + "; the default" + fallback + " is used");
            return null;
        }
    }

    /** The raw text that decided an option, and where it came from. */
    static final class Setting {
        final ConfigOption<?> option;
        final String raw;
        final String origin;

        Setting(ConfigOption<?> option, String raw, String origin) {
            this.option = option;
            this.raw = raw;
            this.origin = origin;
        }
    }

    /** What {@link #load} produced: the snapshot, the warnings to log, and the effective-configuration dump. */
    public static final class Result {
        private final OptionRegistry registry;
        private final Config config;
        private final List<String> warnings;
        private final List<Setting> applied;
        private final Set<String> secretValues;
        private final File agentJarDir;
        private final String derivedServiceName;

        Result(OptionRegistry registry, Config config, List<String> warnings, List<Setting> applied, Set<String> secretValues,
               File agentJarDir, String derivedServiceName) {
            this.registry = registry;
            this.config = config;
            this.warnings = Collections.unmodifiableList(new ArrayList<String>(warnings));
            this.applied = new ArrayList<Setting>(applied);
            this.secretValues = Collections.unmodifiableSet(new HashSet<String>(secretValues));
            this.agentJarDir = agentJarDir;
            this.derivedServiceName = derivedServiceName;
        }

        public Config config() {
            return config;
        }

        /** One line per problem, to be logged at WARN; never contains a secret value. */
        public List<String> warnings() {
            return warnings;
        }

        public OptionRegistry registry() {
            return registry;
        }

        /** The directory that stands for {@code _AGENT_HOME_}, or null. */
        public File agentJarDir() {
            return agentJarDir;
        }

        /**
         * Every value given for a sensitive option, in any source, and the user information of every URL in any value;
         * start-up registers them with the log's mask.
         */
        public Set<String> secretValues() {
            return secretValues;
        }

        /**
         * A multi-line block listing every option that a source set (and a derived service_name), with its value and
         * origin; values of sensitive options read {@code [REDACTED]}.
         */
        public String effectiveConfiguration() {
            TreeMap<String, String> lines = new TreeMap<String, String>();
            for (Setting s : applied) {
                lines.put(s.option.key(), s.option.key() + ": " + s.option.display(s.raw) + "  (" + s.origin + ")");
            }
            if (derivedServiceName != null) {
                lines.put(CoreOptions.SERVICE_NAME.key(), CoreOptions.SERVICE_NAME.key() + ": " + derivedServiceName
                        + "  (derived from " + SUN_JAVA_COMMAND + ")");
            }
            StringBuilder sb = new StringBuilder("Effective configuration (options not at their default; all others are):");
            for (String line : lines.values()) {
                sb.append(System.lineSeparator()).append("  ").append(line);
            }
            return sb.toString();
        }

        /**
         * Applies log_level and log_file to {@link AgentLog}, registers every secret value with the log's mask, then
         * logs each warning at WARN and the effective configuration at DEBUG. Call once, right after loading.
         */
        public void initLogging() {
            LogLevel level = config.get(CoreOptions.LOG_LEVEL);
            AgentLog.configure(level, config.get(CoreOptions.LOG_FILE), agentJarDir);
            for (String secret : secretValues) {
                AgentLog.addSecret(secret);
            }
            Logger log = AgentLog.get(ConfigLoader.class);
            for (String warning : warnings) {
                log.warn(warning);
            }
            if (log.isDebugEnabled()) {
                // one line each: the log escapes line breaks in a message, as it escapes every control character
                for (String line : effectiveConfiguration().split(System.lineSeparator())) {
                    log.debug(line);
                }
            }
        }
    }
}
