package dev.apmagent.benchmark.overhead;

import dev.apmagent.benchmark.LoopbackPort;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the overhead comparison end to end. For each endpoint and round, it starts the reference application in a
 * fresh JVM under each configuration in turn (none, ours, elastic, otel, none, ours, ...: interleaved, so that drift of
 * a shared machine spreads over every configuration), and for each JVM:
 * <ol>
 *   <li>measures start-up: process start to the first {@code 200} from {@code GET /hello}, polled every 5 ms;</li>
 *   <li>warms up under the closed-loop load until throughput settles: windows of {@code --window} seconds, settled when
 *       the last three are within {@code --tolerance} of each other and not above the three before them, after at
 *       least {@code --warmup-min} and at most {@code --warmup-max} seconds (the report says when the bound was
 *       hit);</li>
 *   <li>measures one window of {@code --measure} seconds: responses per second, latency percentiles, the process's
 *       CPU time (/proc/PID/stat utime + stime) per response, and VmRSS at the end;</li>
 *   <li>stops the load, reads heap after GC from {@code GET /heap}, stops the JVM with SIGTERM (agents flush on
 *       shutdown) and waits until the sink has been quiet for 1.5 s, then records what the sink received.</li>
 * </ol>
 * The application runs alone on {@code --app-cpus} and the harness (load generator and sink) on {@code --harness-cpus},
 * by {@code taskset}, when taskset exists and the machine has at least two cores.
 * Usage: see {@code apm-agent-benchmarks/overhead.sh --help} and docs/benchmarks.md.
 */
public final class OverheadHarness {

    private final Options options;
    private final TelemetrySink sink;
    private final long ticksPerSecond = ProcStats.clockTicksPerSecond();

    OverheadHarness(Options options, TelemetrySink sink) {
        this.options = options;
        this.sink = sink;
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.println(Options.USAGE);
            return;
        }
        if (!ProcStats.available()) {
            throw new IllegalStateException("the harness reads /proc/PID/stat and /proc/PID/status: Linux only");
        }
        if (options.harnessCpus != null) {
            String self = Long.toString(ProcessHandle.current().pid());
            run(List.of("taskset", "-a", "-p", "-c", options.harnessCpus, self));
        }
        String loadBefore = loadAverage();
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        try (TelemetrySink sink = new TelemetrySink()) {
            OverheadHarness harness = new OverheadHarness(options, sink);
            List<AgentSetup> setups = options.setups(sink.url());
            StringBuilder sections = new StringBuilder();
            for (String endpoint : options.endpoints) {
                List<RunResult> results = new ArrayList<>();
                for (int round = 1; round <= options.rounds; round++) {
                    for (AgentSetup setup : setups) {
                        results.add(harness.runOne(endpoint, round, setup));
                    }
                }
                sections.append(OverheadReport.renderEndpoint(endpoint, results)).append('\n');
                System.out.println(OverheadReport.renderEndpoint(endpoint, results));
            }
            String loadAfter = loadAverage();
            String report = harness.header(started, setups, loadBefore, loadAfter) + "\n## Results\n\n" + sections;
            Files.createDirectories(options.out.toAbsolutePath().getParent());
            Files.writeString(options.out, report);
            System.out.println("report written to " + options.out);
        }
    }

    RunResult runOne(String endpoint, int round, AgentSetup setup) throws Exception {
        int port = LoopbackPort.free();
        Map<String, Long> before = sink.snapshot();
        List<String> command = new ArrayList<>();
        if (options.appCpus != null) {
            command.addAll(List.of("taskset", "-c", options.appCpus));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options.appJvmArgs);
        command.addAll(setup.jvmArguments());
        command.addAll(List.of("-jar", options.appJar.toString(), Integer.toString(port),
                Integer.toString(options.concurrency)));
        Files.createDirectories(options.workDir);
        Path log = options.workDir.resolve(endpoint.replace("/", "") + "-r" + round + "-" + setup.key() + ".log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(setup.environment());
        System.out.printf(Locale.ROOT, "== %s round %d %s (log %s)%n", endpoint, round, setup.key(), log);
        long t0 = System.nanoTime();
        Process app = pb.start();
        try {
            long startupMillis = awaitFirstResponse(app, port, t0, log);
            double warmup = 0;
            boolean settled = false;
            LoadWindow measured;
            long cpuTicks;
            long rss;
            try (Load load = options.startLoad(port, endpoint)) {
                List<Double> rates = new ArrayList<>();
                while (warmup < options.warmupMaxSeconds) {
                    LoadWindow w = load.run(options.windowSeconds);
                    warmup += w.seconds();
                    rates.add(w.perSecond());
                    if (warmup >= options.warmupMinSeconds && settled(rates, options.tolerance)) {
                        settled = true;
                        break;
                    }
                }
                System.out.printf(Locale.ROOT, "   warm-up %.0f s (%s), last windows %s req/s%n", warmup,
                        settled ? "settled" : "NOT settled, bound reached", lastRates(rates));
                long cpuBefore = ProcStats.cpuTicks(app.pid());
                measured = load.run(options.measureSeconds);
                long cpuAfter = ProcStats.cpuTicks(app.pid());
                rss = ProcStats.rssKib(app.pid());
                cpuTicks = cpuAfter - cpuBefore;
            }
            long[] heapAndServed = heapAfterGc(port);
            long heap = heapAndServed[0];
            long served = heapAndServed[1];
            stop(app);
            awaitQuietSink();
            Map<String, Long> received = TelemetrySink.delta(before, sink.snapshot());
            double cpuMicros = measured.responses() > 0
                    ? cpuTicks * 1e6 / ticksPerSecond / measured.responses() : 0;
            RunResult result = new RunResult(setup, round, startupMillis, warmup, settled, measured.seconds(),
                    measured.responses(), measured.errors(),
                    measured.p50Nanos() / 1e3, measured.p99Nanos() / 1e3, measured.p999Nanos() / 1e3,
                    cpuMicros, rss, heap, served, received, dropLogLines(log));
            System.out.printf(Locale.ROOT, "   %.0f req/s, p99 %.2f ms, CPU %.1f µs/request, RSS %d MiB, heap %.1f MiB,"
                            + " start-up %.2f s; sink: %s%n", result.requestsPerSecond(), result.p99Micros() / 1e3,
                    cpuMicros, rss / 1024, heap / 1048576.0, startupMillis / 1e3, received);
            return result;
        } finally {
            if (app.isAlive()) {
                app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Lines of an application log that mention dropping data, case-insensitively. */
    static long dropLogLines(Path log) throws IOException {
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.toLowerCase(Locale.ROOT).contains("drop")).count();
        }
    }

    /**
     * True when throughput has settled: the last three windows are within {@code tolerance} of each other
     * (max / min - 1), and their mean is not more than {@code tolerance} above the mean of the three before them. The
     * second condition catches a plateau on the way up, which JIT compilation of an agent's code often makes.
     */
    static boolean settled(List<Double> rates, double tolerance) {
        int n = rates.size();
        if (n < 6) {
            return false;
        }
        double min = Double.MAX_VALUE;
        double max = 0;
        double last = 0;
        double previous = 0;
        for (int i = n - 3; i < n; i++) {
            min = Math.min(min, rates.get(i));
            max = Math.max(max, rates.get(i));
            last += rates.get(i);
            previous += rates.get(i - 3);
        }
        return min > 0 && max / min - 1 <= tolerance && last / previous - 1 <= tolerance;
    }

    private static String lastRates(List<Double> rates) {
        StringBuilder sb = new StringBuilder();
        for (int i = Math.max(0, rates.size() - 3); i < rates.size(); i++) {
            sb.append(sb.length() > 0 ? ", " : "").append(String.format(Locale.ROOT, "%.0f", rates.get(i)));
        }
        return sb.toString();
    }

    private long awaitFirstResponse(Process app, int port, long t0, Path log) throws Exception {
        long deadline = t0 + TimeUnit.SECONDS.toNanos(options.startupTimeoutSeconds);
        while (System.nanoTime() < deadline) {
            if (!app.isAlive()) {
                throw new IllegalStateException("the application exited with " + app.exitValue() + " before serving;"
                        + " see " + log);
            }
            try {
                if (get(port, "/hello").startsWith("{")) {
                    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("the application did not serve /hello within " + options.startupTimeoutSeconds
                + " s; see " + log);
    }

    /**
     * Heap used after GC, and every request the application answered in its life (this one included): counted by the
     * application, because a load generator that stops at a deadline abandons the requests in flight, which the
     * application still serves and the agents still trace.
     */
    private static long[] heapAfterGc(int port) throws IOException {
        String json = get(port, "/heap");
        return new long[] {jsonNumber(json, "heapUsedAfterGc"), jsonNumber(json, "requestsServed")};
    }

    static long jsonNumber(String json, String name) throws IOException {
        String key = "\"" + name + "\":";
        int i = json.indexOf(key);
        if (i < 0) {
            throw new IOException("no " + name + " in " + json);
        }
        int end = i + key.length();
        while (end < json.length() && Character.isDigit(json.charAt(end))) {
            end++;
        }
        return Long.parseLong(json.substring(i + key.length(), end));
    }

    /** One GET on its own connection; the body when the status is 200. */
    static String get(int port, String path) throws IOException {
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String head = HttpWire.readHead(in);
            if (head == null) {
                throw new IOException("no response");
            }
            byte[] body = HttpWire.readBody(in, head);
            if (HttpWire.status(head) != 200) {
                throw new IOException(path + " answered " + head.lines().findFirst().orElse(""));
            }
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static void stop(Process app) throws InterruptedException {
        app.destroy();
        if (!app.waitFor(30, TimeUnit.SECONDS)) {
            app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Waits until no counter of the sink moved for 1.5 s (at most 15 s): what the stopped agent flushed arrived. */
    private void awaitQuietSink() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        Map<String, Long> last = sink.snapshot();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(100);
            Map<String, Long> now = sink.snapshot();
            if (!now.equals(last)) {
                last = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= TimeUnit.MILLISECONDS.toNanos(1500)) {
                return;
            }
        }
    }

    private String header(Instant started, List<AgentSetup> setups, String loadBefore, String loadAfter)
            throws IOException {
        Properties versions = versions();
        StringBuilder md = new StringBuilder();
        md.append("# Overhead: ").append(options.label).append("\n\n");
        md.append("Written by `apm-agent-benchmarks/overhead.sh` (`dev.apmagent.benchmark.overhead.OverheadHarness`);"
                + " see [../benchmarks.md](../benchmarks.md#overhead-harness) for what it measures and how.\n\n");
        md.append("- Date: ").append(started).append(" (UTC)\n");
        md.append("- Command: `").append(options.commandLine).append("`\n");
        md.append("- Machine: ").append(cpuModel()).append(", ").append(options.cores).append(" cores, ")
                .append(memTotal()).append(", Linux ")
                .append(System.getProperty("os.version")).append("\n");
        md.append("- Load average (1, 5, 15 min) before / after: ").append(loadBefore).append(" / ")
                .append(loadAfter).append("\n");
        md.append("- JDK (harness and application): ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.runtime.version")).append("\n");
        md.append("- Pinning: ").append(options.appCpus == null ? "none (taskset missing, fewer than 2 cores, or"
                + " --no-pin)" : "application on CPU " + options.appCpus + ", load generator and sink on CPU "
                + options.harnessCpus).append("\n");
        md.append("- Application: reference-app.jar (embedded Tomcat ").append(versions.getProperty("tomcat"))
                .append(", HikariCP ").append(versions.getProperty("hikaricp")).append(", H2 ")
                .append(versions.getProperty("h2")).append(" in memory, pool size = concurrency), JVM arguments `")
                .append(String.join(" ", options.appJvmArgs)).append("`\n");
        md.append(String.format(Locale.ROOT, "- Load: %s; warm-up in %.0f s"
                        + " windows until the last three are within %.0f%% of each other and of the three before"
                        + " (at least %.0f s, at most %.0f s);"
                        + " measured window %.0f s; %d round(s), configurations interleaved%n", options.loadDescription(),
                options.windowSeconds, options.tolerance * 100, options.warmupMinSeconds, options.warmupMaxSeconds,
                options.measureSeconds, options.rounds));
        md.append("- Sink: ").append("loopback intake v2 + OTLP/HTTP receiver in the harness JVM, TCP_NODELAY,"
                + " answers at once\n\n");
        md.append("| configuration | version | flags |\n|---|---|---|\n");
        Path root = Path.of("").toAbsolutePath();
        for (AgentSetup s : setups) {
            md.append("| ").append(s.label()).append(" | ").append(s.version()).append(" | `")
                    .append(s.flags().isEmpty() ? "-" : s.flags().replace(root + "/", "")).append("` |\n");
        }
        return md.toString();
    }

    private static Properties versions() throws IOException {
        Properties p = new Properties();
        try (InputStream in = OverheadHarness.class.getResourceAsStream("versions.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return p;
    }

    /** The 1, 5 and 15 minute load averages of /proc/loadavg. */
    private static String loadAverage() throws IOException {
        String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
        return fields[0] + " " + fields[1] + " " + fields[2];
    }

    private static String cpuModel() throws IOException {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown CPU");
        }
    }

    private static String memTotal() throws IOException {
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            return lines.filter(l -> l.startsWith("MemTotal:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024 + " MiB RAM").orElse("unknown RAM");
        }
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
    }

    /** Command-line options; {@code --quick} and {@code --full} set the defaults that the other options override. */
    static final class Options {
        static final String USAGE = String.join("\n",
                "OverheadHarness --quick|--full [options]",
                "  --endpoints /hello,/db,/db3   endpoints to load (quick: /db; full: all three)",
                "  --configs none,ours,elastic,otel   configurations, run interleaved in this order; also ours-down,",
                "                                ours-503, ours-hang: this agent against a failing APM Server",
                "  --rounds N                    interleaved rounds (quick 1, full 3)",
                "  --concurrency N               connections of the load (16)",
                "  --load wrk|java               load generator: wrk (the default when it is on the PATH) or the",
                "                                harness's own Java closed loop",
                "  --rate N                      wrk only: pace each connection to about N requests/s in all (0:",
                "                                closed loop, as fast as the application answers)",
                "  --measure S                   measured window per JVM in seconds (quick 10, full 30)",
                "  --window S                    warm-up window (quick 2, full 5)",
                "  --warmup-min S, --warmup-max S   warm-up bounds (quick 12/45, full 45/180)",
                "  --tolerance F                 settled when the last 3 windows are within F of each other and of"
                        + " the 3 before (quick 0.10, full 0.05)",
                "  --metrics-interval D          metrics_interval of the Elastic-style agents (30s)",
                "  --app-jar P, --our-agent P, --agents-dir D   inputs (the build's defaults)",
                "  --baseline-agent P            this agent's jar for the configuration 'base' (before a change)",
                "  --agent KEY=P                 (repeatable) this agent's jar P as configuration KEY, for --configs:",
                "                                several builds of one change, lever by lever, interleaved in one run",
                "  --our-version V               the version the report gives this agent",
                "  --app-jvm-args 'A B'          JVM arguments of the application (-Xms512m -Xmx512m)",
                "  --no-pin                      do not use taskset",
                "  --out FILE, --work-dir DIR, --label TEXT   report file, logs, report heading");

        boolean help;
        List<String> endpoints;
        List<String> configs = AgentSetup.DEFAULT_KEYS;
        int rounds;
        int concurrency = 16;
        boolean wrk = onPath("wrk");
        int rate;
        double measureSeconds;
        double windowSeconds;
        double warmupMinSeconds;
        double warmupMaxSeconds;
        double tolerance;
        long startupTimeoutSeconds = 180;
        String metricsInterval = "30s";
        Path appJar = Path.of("apm-agent-benchmarks/target/reference-app.jar");
        Path ourAgent = Path.of("apm-agent/target/apm-agent.jar");
        Path baselineAgent;
        final Map<String, Path> namedAgents = new java.util.LinkedHashMap<>();
        Path agentsDir = Path.of("apm-agent-benchmarks/target/agents");
        String ourVersion = "0.1.0-SNAPSHOT";
        List<String> appJvmArgs = List.of("-Xms512m", "-Xmx512m");
        String appCpus;
        String harnessCpus;
        /** Cores of the machine, read before the harness pins itself. */
        int cores = Runtime.getRuntime().availableProcessors();
        Path out;
        Path workDir;
        String label;
        String commandLine;

        static Options parse(String[] args) {
            Options o = new Options();
            String mode = null;
            boolean pin = true;
            for (String a : args) {
                if (a.equals("--quick") || a.equals("--full")) {
                    mode = a.substring(2);
                } else if (a.equals("-h") || a.equals("--help")) {
                    o.help = true;
                    return o;
                }
            }
            if (mode == null) {
                throw new IllegalArgumentException("choose --quick or --full");
            }
            boolean quick = mode.equals("quick");
            o.endpoints = quick ? List.of("/db") : List.of("/hello", "/db", "/db3");
            o.rounds = quick ? 1 : 3;
            o.measureSeconds = quick ? 10 : 30;
            o.windowSeconds = quick ? 2 : 5;
            o.warmupMinSeconds = quick ? 12 : 45;
            o.warmupMaxSeconds = quick ? 45 : 180;
            o.tolerance = quick ? 0.10 : 0.05;
            o.out = Path.of(quick ? "apm-agent-benchmarks/target/overhead/overhead.md" : "docs/benchmarks/overhead.md");
            o.workDir = Path.of("apm-agent-benchmarks/target/overhead/logs");
            o.label = quick ? "quick run (" + java.time.LocalDate.now() + "): proves the harness works, NOT results"
                    : "full run (" + java.time.LocalDate.now() + ")";
            o.commandLine = "OverheadHarness " + String.join(" ", args);
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--quick", "--full" -> { }
                    case "--no-pin" -> pin = false;
                    case "--endpoints" -> o.endpoints = Arrays.asList(value(args, ++i, a).split(","));
                    case "--configs" -> o.configs = Arrays.asList(value(args, ++i, a).split(","));
                    case "--rounds" -> o.rounds = Integer.parseInt(value(args, ++i, a));
                    case "--concurrency" -> o.concurrency = Integer.parseInt(value(args, ++i, a));
                    case "--load" -> o.wrk = switch (value(args, ++i, a)) {
                        case "wrk" -> true;
                        case "java" -> false;
                        default -> throw new IllegalArgumentException("--load is wrk or java");
                    };
                    case "--rate" -> o.rate = Integer.parseInt(value(args, ++i, a));
                    case "--measure" -> o.measureSeconds = Double.parseDouble(value(args, ++i, a));
                    case "--window" -> o.windowSeconds = Double.parseDouble(value(args, ++i, a));
                    case "--warmup-min" -> o.warmupMinSeconds = Double.parseDouble(value(args, ++i, a));
                    case "--warmup-max" -> o.warmupMaxSeconds = Double.parseDouble(value(args, ++i, a));
                    case "--tolerance" -> o.tolerance = Double.parseDouble(value(args, ++i, a));
                    case "--metrics-interval" -> o.metricsInterval = value(args, ++i, a);
                    case "--app-jar" -> o.appJar = Path.of(value(args, ++i, a));
                    case "--our-agent" -> o.ourAgent = Path.of(value(args, ++i, a));
                    case "--baseline-agent" -> o.baselineAgent = Path.of(value(args, ++i, a));
                    case "--agent" -> {
                        String spec = value(args, ++i, a);
                        int eq = spec.indexOf('=');
                        if (eq <= 0 || AgentSetup.KEYS.contains(spec.substring(0, eq))) {
                            throw new IllegalArgumentException("--agent KEY=PATH with a key of your own: " + spec);
                        }
                        o.namedAgents.put(spec.substring(0, eq), Path.of(spec.substring(eq + 1)));
                    }
                    case "--agents-dir" -> o.agentsDir = Path.of(value(args, ++i, a));
                    case "--our-version" -> o.ourVersion = value(args, ++i, a);
                    case "--app-jvm-args" -> o.appJvmArgs = Arrays.asList(value(args, ++i, a).trim().split("\\s+"));
                    case "--out" -> o.out = Path.of(value(args, ++i, a));
                    case "--work-dir" -> o.workDir = Path.of(value(args, ++i, a));
                    case "--label" -> o.label = value(args, ++i, a);
                    case "--command-line" -> o.commandLine = value(args, ++i, a);
                    default -> throw new IllegalArgumentException("unknown argument " + a);
                }
            }
            if (o.rate > 0 && !o.wrk) {
                throw new IllegalArgumentException("--rate needs --load wrk (wrk on the PATH)");
            }
            for (String c : o.configs) {
                if (!AgentSetup.KEYS.contains(c) && !o.namedAgents.containsKey(c)) {
                    throw new IllegalArgumentException("unknown configuration " + c + "; known: " + AgentSetup.KEYS);
                }
            }
            if (pin && o.cores >= 2 && onPath("taskset")) {
                o.appCpus = "0";
                o.harnessCpus = "1";
            }
            return o;
        }

        private static String value(String[] args, int i, String name) {
            if (i >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return args[i];
        }

        private static boolean onPath(String tool) {
            String path = System.getenv("PATH");
            if (path == null) {
                return false;
            }
            for (String dir : path.split(":")) {
                if (Files.isExecutable(Path.of(dir, tool))) {
                    return true;
                }
            }
            return false;
        }

        /** Starts the load on the application's endpoint. */
        Load startLoad(int port, String endpoint) throws IOException {
            return wrk ? WrkLoad.start("127.0.0.1", port, endpoint, concurrency, rate)
                    : LoadGenerator.start("127.0.0.1", port, endpoint, concurrency);
        }

        /** The load in words, for the report. */
        String loadDescription() {
            String generator = wrk ? "wrk -t1" : "the harness's Java load generator";
            return rate > 0
                    ? String.format(Locale.ROOT, "%s, %d connections (keep-alive) paced to about %d requests/s in all",
                            generator, concurrency, rate)
                    : String.format(Locale.ROOT, "%s, closed loop, %d connections (keep-alive)", generator, concurrency);
        }

        /** The configurations to run, in order, with their jars resolved. */
        List<AgentSetup> setups(String sinkUrl) throws IOException {
            requireFile(appJar, "the reference application (build apm-agent-benchmarks)");
            List<AgentSetup> setups = new ArrayList<>();
            for (String c : configs) {
                switch (c) {
                    case "none" -> setups.add(AgentSetup.none());
                    case "ours" -> {
                        requireFile(ourAgent, "this agent (build apm-agent)");
                        setups.add(AgentSetup.ours(ourAgent.toAbsolutePath(), ourVersion, sinkUrl, metricsInterval));
                    }
                    case "base" -> {
                        if (baselineAgent == null) {
                            throw new IllegalArgumentException("configuration base needs --baseline-agent");
                        }
                        requireFile(baselineAgent, "the baseline jar of this agent");
                        setups.add(AgentSetup.base(baselineAgent.toAbsolutePath(), sinkUrl, metricsInterval));
                    }
                    case "elastic" -> {
                        Path jar = agentJar("elastic-apm-agent-");
                        setups.add(AgentSetup.elastic(jar, versionOf(jar, "elastic-apm-agent-"), sinkUrl,
                                metricsInterval));
                    }
                    case "otel" -> {
                        Path jar = agentJar("opentelemetry-javaagent-");
                        setups.add(AgentSetup.otel(jar, versionOf(jar, "opentelemetry-javaagent-"), sinkUrl));
                    }
                    default -> {
                        if (namedAgents.containsKey(c)) {
                            requireFile(namedAgents.get(c), "the jar of --agent " + c);
                            setups.add(AgentSetup.jar(c, namedAgents.get(c).toAbsolutePath(), sinkUrl, metricsInterval));
                            continue;
                        }
                        AgentSetup.ServerFault fault = AgentSetup.ServerFault.ofKey(c);
                        if (fault == null) {
                            throw new IllegalArgumentException(c);
                        }
                        requireFile(ourAgent, "this agent (build apm-agent)");
                        setups.add(AgentSetup.oursFaulty(fault, ourAgent.toAbsolutePath(), ourVersion, sinkUrl,
                                metricsInterval));
                    }
                }
            }
            return setups;
        }

        private Path agentJar(String prefix) throws IOException {
            if (Files.isDirectory(agentsDir)) {
                try (Stream<Path> files = Files.list(agentsDir)) {
                    List<Path> found = files.filter(p -> p.getFileName().toString().startsWith(prefix)
                            && p.getFileName().toString().endsWith(".jar")).sorted().toList();
                    if (found.size() == 1) {
                        return found.get(0).toAbsolutePath();
                    }
                    if (found.size() > 1) {
                        throw new IllegalStateException("more than one " + prefix + "*.jar in " + agentsDir
                                + ": " + found);
                    }
                }
            }
            throw new IllegalStateException("no " + prefix + "*.jar in " + agentsDir
                    + " (the apm-agent-benchmarks build copies it there from Maven Central)");
        }

        static String versionOf(Path jar, String prefix) {
            String name = jar.getFileName().toString();
            return name.substring(prefix.length(), name.length() - ".jar".length());
        }

        private static void requireFile(Path p, String what) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException("missing " + p.toAbsolutePath() + ": " + what);
            }
        }
    }
}
