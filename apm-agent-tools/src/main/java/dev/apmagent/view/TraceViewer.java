package dev.apmagent.view;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.util.List;

/**
 * {@code java -jar apm-agent.jar view [options] FILE}: prints the traces of an NDJSON intake-v2 event file as
 * waterfalls, then a summary. Exit code 0 on success, 2 on a usage error or a file that cannot be read.
 */
public final class TraceViewer {

    static final int EXIT_OK = 0;
    static final int EXIT_USAGE = 2;
    static final int DEFAULT_LIMIT = 20;
    private static final String PREFIX = "apm-agent view: ";

    static final String USAGE = ""
            + "usage: java -jar apm-agent.jar view [options] FILE\n"
            + "\n"
            + "Prints the events of an NDJSON intake-v2 file (the agent's output_file, or a captured request body to\n"
            + "the APM Server; gzip and zlib/deflate files are inflated) as one waterfall per trace, then a summary.\n"
            + "FILE '-' reads standard input.\n"
            + "\n"
            + "options:\n"
            + "  --limit N     show the first N traces by start time (default " + DEFAULT_LIMIT + "; 0: summary only)\n"
            + "  --trace ID    show only the trace with this trace id\n"
            + "  --ascii       draw bars with '#' instead of block characters (the default when the\n"
            + "                output encoding cannot show blocks)\n"
            + "  -h, --help    print this help\n"
            + "\n"
            + "waterfall: one block per trace: the transaction, its spans nested by parent_id, errors ('!') under the\n"
            + "  span or transaction they belong to; per line name, type (type/subtype/action for spans), duration,\n"
            + "  outcome and a " + Bar.WIDTH + "-column bar positioned by start offset within the trace. Spans and\n"
            + "  errors whose parent is not in the file are shown under '" + Waterfall.ORPHANS_MARKER + "'.\n"
            + "  Missing fields print as '?'.\n"
            + "summary: event counts; transactions per name with count, exact p50/p99 duration (nearest rank) and\n"
            + "  errors; spans per type/subtype with count and total time; the agent's own agent.events.* samples\n"
            + "  (dropped, total, evicted...) as reported: number of reports, their sum and the last value.\n"
            + "Blank lines are skipped; malformed lines are counted and reported once; unknown event types ignored.\n"
            + "\n"
            + "exit status: 0 success, 2 usage error, unreadable file or unknown trace id.\n";

    private TraceViewer() {
    }

    public static void main(String[] args) {
        Charset charset = stdoutCharset();
        PrintStream out;
        try {
            out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false,
                    charset.name());
        } catch (UnsupportedEncodingException e) {
            out = System.out;
        }
        int code = run(args, System.in, out, System.err, charset.newEncoder().canEncode(Bar.BLOCK));
        out.flush();
        if (code != EXIT_OK) {
            System.exit(code);
        }
    }

    /** The charset the JVM writes standard output in (stdout.encoding from Java 18, else the default). */
    private static Charset stdoutCharset() {
        String[] properties = {"stdout.encoding", "sun.stdout.encoding"};
        for (String property : properties) {
            String name = System.getProperty(property);
            if (name != null) {
                try {
                    return Charset.forName(name);
                } catch (RuntimeException ignored) {
                    // an unknown name: fall through to the default
                }
            }
        }
        return Charset.defaultCharset();
    }

    /**
     * Runs the viewer and returns the exit code.
     *
     * @param blockBars whether {@code out} can show '█'; {@code --ascii} draws '#' regardless
     */
    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err, boolean blockBars) {
        String file = null;
        String traceId = null;
        int limit = DEFAULT_LIMIT;
        boolean ascii = !blockBars;
        boolean optionsEnded = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (optionsEnded || arg.equals("-") || !arg.startsWith("-")) {
                if (file != null) {
                    return usageError(err, "one FILE expected, got '" + file + "' and '" + arg + "'");
                }
                file = arg;
            } else if (arg.equals("--")) {
                optionsEnded = true;
            } else if (arg.equals("-h") || arg.equals("--help")) {
                out.print(USAGE);
                return EXIT_OK;
            } else if (arg.equals("--ascii")) {
                ascii = true;
            } else if (arg.equals("--limit") || arg.startsWith("--limit=")) {
                String value = optionValue(args, i, "--limit");
                if (value == null) {
                    return usageError(err, "--limit needs a number");
                }
                if (arg.equals("--limit")) {
                    i++;
                }
                try {
                    limit = Integer.parseInt(value);
                } catch (NumberFormatException e) {
                    limit = -1;
                }
                if (limit < 0) {
                    return usageError(err, "--limit needs a number >= 0, got '" + value + "'");
                }
            } else if (arg.equals("--trace") || arg.startsWith("--trace=")) {
                traceId = optionValue(args, i, "--trace");
                if (traceId == null || traceId.isEmpty()) {
                    return usageError(err, "--trace needs a trace id");
                }
                if (arg.equals("--trace")) {
                    i++;
                }
            } else {
                return usageError(err, "unknown option " + arg);
            }
        }
        if (file == null) {
            return usageError(err, "FILE missing");
        }

        EventLog log;
        try {
            log = read(file, stdin);
        } catch (IOException e) {
            err.println(PREFIX + "cannot read " + file + ": " + describe(e));
            return EXIT_USAGE;
        }
        return print(file, log, traceId, limit, ascii ? Bar.HASH : Bar.BLOCK, out, err);
    }

    private static String optionValue(String[] args, int i, String option) {
        if (args[i].startsWith(option + "=")) {
            return args[i].substring(option.length() + 1);
        }
        return i + 1 < args.length ? args[i + 1] : null;
    }

    private static EventLog read(String file, InputStream stdin) throws IOException {
        if (file.equals("-")) {
            return EventFileReader.read(stdin);
        }
        File f = new File(file);
        if (!f.exists()) {
            throw new IOException("no such file");
        }
        if (f.isDirectory()) {
            throw new IOException("is a directory");
        }
        if (!f.canRead()) {
            throw new IOException("permission denied");
        }
        InputStream in = new FileInputStream(f);
        try {
            return EventFileReader.read(in);
        } finally {
            in.close();
        }
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    static int print(String file, EventLog log, String traceId, int limit, char fill, PrintStream out,
                     PrintStream err) {
        List<Trace> traces = Trace.group(log.events);
        Waterfall waterfall = new Waterfall(out, fill);
        if (traceId != null) {
            Trace match = null;
            for (Trace trace : traces) {
                if (trace.traceId != null && trace.traceId.equalsIgnoreCase(traceId)) {
                    match = trace;
                }
            }
            if (match == null) {
                err.println(PREFIX + "no trace " + traceId + " in " + file + " (" + Format.count(traces.size(), "trace")
                        + ")");
                return EXIT_USAGE;
            }
            out.println(file + ": trace " + match.traceId + " of " + Format.count(traces.size(), "trace"));
            out.println();
            waterfall.print(match);
        } else {
            int shown = Math.min(limit, traces.size());
            out.println(file + ": " + Format.count(traces.size(), "trace") + ", showing " + shown
                    + " (by start time)");
            for (int i = 0; i < shown; i++) {
                out.println();
                waterfall.print(traces.get(i));
            }
            if (shown < traces.size()) {
                out.println();
                out.println("... " + Format.count(traces.size() - shown, "more trace") + " not shown (--limit "
                        + traces.size() + " shows all, --trace ID shows one)");
            }
        }
        out.println();
        new Summary(log).print(out);
        return EXIT_OK;
    }

    private static int usageError(PrintStream err, String message) {
        err.println(PREFIX + message);
        err.println("usage: java -jar apm-agent.jar view [--limit N] [--trace ID] [--ascii] FILE   (--help for more)");
        return EXIT_USAGE;
    }
}
