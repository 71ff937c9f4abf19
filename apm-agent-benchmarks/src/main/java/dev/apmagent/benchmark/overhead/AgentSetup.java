package dev.apmagent.benchmark.overhead;

import dev.apmagent.benchmark.LoopbackPort;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One measured configuration of the reference application: the agent (or none), its version, the JVM arguments and
 * environment that attach and configure it. Every agent samples 100% and reports to the harness's sink.
 *
 * @param key          short name used on the command line and in file names: none, ours, base, elastic, otel
 * @param label        what the report calls it
 * @param version      the agent's version, as the report prints it
 * @param jvmArguments arguments before {@code -jar}
 * @param environment  extra environment variables of the application process
 */
public record AgentSetup(String key, String label, String version, List<String> jvmArguments,
                         Map<String, String> environment) {

    public static final String SERVICE_NAME = "reference-app";
    /** What a run compares unless told otherwise. */
    public static final List<String> DEFAULT_KEYS = List.of("none", "ours", "elastic", "otel");
    /** Every configuration {@code --configs} accepts: the defaults and this agent against each {@link ServerFault}. */
    public static final List<String> KEYS = Stream.concat(Stream.concat(DEFAULT_KEYS.stream(), Stream.of("base")),
            Arrays.stream(ServerFault.values()).map(ServerFault::key)).toList();

    /**
     * How the APM Server fails for this agent, to compare with {@link #ours}: nothing listens ({@code ours-down}), or
     * the sink answers 503 ({@code ours-503}) or reads and never answers ({@code ours-hang}) under a path prefix.
     * Nothing is delivered; what counts is that the application does not notice.
     */
    public enum ServerFault {
        DOWN("ours-down", "down (nothing listens)", null),
        STATUS_503("ours-503", "answering 503", TelemetrySink.FAULT_503),
        HANG("ours-hang", "reading and never answering", TelemetrySink.FAULT_HANG);

        private final String key;
        private final String description;
        /** The sink's path prefix that fails this way, or null for a port nothing listens on. */
        private final String sinkPath;

        ServerFault(String key, String description, String sinkPath) {
            this.key = key;
            this.description = description;
            this.sinkPath = sinkPath;
        }

        public String key() {
            return key;
        }

        /** The fault of a {@code --configs} key, or null. */
        public static ServerFault ofKey(String key) {
            for (ServerFault f : values()) {
                if (f.key.equals(key)) {
                    return f;
                }
            }
            return null;
        }

        /** The server URL the agent gets: a path of the sink, or a loopback port that was free a moment ago. */
        String serverUrl(String sinkUrl) throws IOException {
            if (sinkPath != null) {
                return sinkUrl + sinkPath;
            }
            return "http://127.0.0.1:" + LoopbackPort.free();
        }
    }

    /** The application without an agent: the baseline of every ratio. */
    public static AgentSetup none() {
        return new AgentSetup("none", "no agent", "-", List.of(), Map.of());
    }

    /** This project's agent, configured with the Elastic option names it shares with the Elastic agent. */
    public static AgentSetup ours(Path jar, String version, String sinkUrl, String metricsInterval) {
        return new AgentSetup("ours", "apm-agent (this project)", version,
                elasticStyleFlags(jar, sinkUrl, metricsInterval), Map.of());
    }

    /**
     * This agent from another jar ({@code --baseline-agent}, e.g. the build of the commit before a change), configured
     * as {@link #ours}: a before/after comparison interleaved in one run.
     */
    public static AgentSetup base(Path jar, String sinkUrl, String metricsInterval) {
        return jar("base", jar, sinkUrl, metricsInterval);
    }

    /** This agent from the jar {@code --agent key=path} named: one step of a change measured lever by lever. */
    public static AgentSetup jar(String key, Path jar, String sinkUrl, String metricsInterval) {
        return new AgentSetup(key, "apm-agent, " + key + " (" + jar.getFileName() + ")", jar.getFileName().toString(),
                elasticStyleFlags(jar, sinkUrl, metricsInterval), Map.of());
    }

    /** This agent against an APM Server that fails as {@code fault} says. */
    public static AgentSetup oursFaulty(ServerFault fault, Path jar, String version, String sinkUrl,
                                        String metricsInterval) throws IOException {
        return new AgentSetup(fault.key, "apm-agent, APM Server " + fault.description, version,
                elasticStyleFlags(jar, fault.serverUrl(sinkUrl), metricsInterval), Map.of());
    }

    /** {@code co.elastic.apm:elastic-apm-agent}. */
    public static AgentSetup elastic(Path jar, String version, String sinkUrl, String metricsInterval) {
        return new AgentSetup("elastic", "Elastic APM Java agent", version,
                elasticStyleFlags(jar, sinkUrl, metricsInterval), Map.of());
    }

    /** {@code io.opentelemetry.javaagent:opentelemetry-javaagent}, exporting traces only, over OTLP/HTTP protobuf. */
    public static AgentSetup otel(Path jar, String version, String sinkUrl) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("OTEL_SERVICE_NAME", SERVICE_NAME);
        env.put("OTEL_TRACES_EXPORTER", "otlp");
        env.put("OTEL_METRICS_EXPORTER", "none");
        env.put("OTEL_LOGS_EXPORTER", "none");
        env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
        env.put("OTEL_EXPORTER_OTLP_ENDPOINT", sinkUrl);
        env.put("OTEL_TRACES_SAMPLER", "always_on");
        return new AgentSetup("otel", "OpenTelemetry Java agent", version, List.of("-javaagent:" + jar), env);
    }

    private static List<String> elasticStyleFlags(Path jar, String sinkUrl, String metricsInterval) {
        List<String> args = new ArrayList<>();
        args.add("-javaagent:" + jar);
        args.add("-Delastic.apm.server_url=" + sinkUrl);
        args.add("-Delastic.apm.service_name=" + SERVICE_NAME);
        args.add("-Delastic.apm.transaction_sample_rate=1.0");
        args.add("-Delastic.apm.metrics_interval=" + metricsInterval);
        args.add("-Delastic.apm.central_config=false");
        args.add("-Delastic.apm.cloud_provider=none");
        args.add("-Delastic.apm.log_level=warn");
        return args;
    }

    /** The configuration as one line of flags, for the report. */
    public String flags() {
        StringBuilder sb = new StringBuilder();
        environment.forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
        jvmArguments.forEach(a -> sb.append(a).append(' '));
        return sb.toString().trim();
    }
}
