package dev.apmagent.log;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Entry point to the agent's log ({@code AgentLog.get(MyClass.class)}) and the sink every logger writes to.
 *
 * <p>Each line is {@code <UTC time> [apm-agent] <LEVEL> <logger> - <message>}. A message template logged more than
 * {@link #setMaxPerMinute(int) N} times within a minute (per level, logger and template) is suppressed for the rest
 * of that minute; the number suppressed is reported in one line when the minute is over (at the template's next use,
 * at the next log call after it, or on {@link #flushSuppressed()}). Values registered with {@link #addSecret(String)}
 * are replaced by {@code [REDACTED]} in every line, stack traces included.
 *
 * <p>Every message is {@link #escape escaped} as it is formatted, template and arguments alike: what came from outside
 * (a server's reply, a configuration file's key, an exception's message) cannot break a line, move the cursor or
 * reorder the text on a terminal. Stack traces keep their line breaks and tabs and are escaped otherwise.
 *
 * <p>All writing happens under one lock; the log is for start-up, background threads and rare events, never for an
 * application thread's hot path. Nothing here throws into the caller.
 */
public final class AgentLog {

    public static final String SYSTEM_OUT = "System.out";
    public static final String SYSTEM_ERR = "System.err";
    public static final String AGENT_HOME_PLACEHOLDER = "_AGENT_HOME_";
    public static final int DEFAULT_MAX_PER_MINUTE = 20;
    static final long WINDOW_MILLIS = 60_000;
    /** Templates tracked by the rate limit at most; beyond it, new templates are not limited. */
    static final int MAX_TRACKED_TEMPLATES = 4096;
    private static final String REDACTED = "[REDACTED]";

    /** Reads the wall clock; replaced in tests. */
    interface Clock {
        long currentTimeMillis();
    }

    private static final Clock SYSTEM_CLOCK = new Clock() {
        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }
    };

    private static final Object LOCK = new Object();
    private static volatile LogLevel level = LogLevel.INFO;
    // guarded by LOCK
    private static PrintStream out = System.out;
    private static PrintStream ownedFile;
    private static String[] secrets = new String[0];
    private static int maxPerMinute = DEFAULT_MAX_PER_MINUTE;
    private static Clock clock = SYSTEM_CLOCK;
    private static long nextSweepMillis;
    private static final Map<String, Window> windows = new HashMap<String, Window>();

    private AgentLog() {
    }

    public static Logger get(Class<?> type) {
        return new Logger(type.getSimpleName());
    }

    public static void setLevel(LogLevel newLevel) {
        level = newLevel;
    }

    public static LogLevel level() {
        return level;
    }

    /** Sends lines to {@code stream} from now on (a previously opened log file is closed). */
    public static void setOutput(PrintStream stream) {
        synchronized (LOCK) {
            replaceOutput(stream, null);
        }
    }

    /**
     * Applies the log options: {@code logFile} is {@code System.out} (also for null or blank), {@code System.err}, or a
     * file path in which {@code _AGENT_HOME_} stands for {@code agentHome}. The file is appended to and created with
     * its parent directories; when it cannot be opened, one warning goes to System.err and lines go to System.out.
     */
    public static void configure(LogLevel newLevel, String logFile, File agentHome) {
        synchronized (LOCK) {
            level = newLevel;
            String target = logFile == null ? "" : logFile.trim();
            if (target.isEmpty() || target.equalsIgnoreCase(SYSTEM_OUT)) {
                replaceOutput(System.out, null);
            } else if (target.equalsIgnoreCase(SYSTEM_ERR)) {
                replaceOutput(System.err, null);
            } else {
                String path = agentHome == null ? target : target.replace(AGENT_HOME_PLACEHOLDER, agentHome.getPath());
                try {
                    replaceOutput(null, openAppending(new File(path)));
                } catch (IOException | SecurityException e) {
                    System.err.println(line(clock.currentTimeMillis(), LogLevel.WARN, "AgentLog",
                            escape("Cannot open log file " + path + " (" + e.getMessage() + "); logging to System.out"), null));
                    replaceOutput(System.out, null);
                }
            }
        }
    }

    /** Masks {@code secret} in every line from now on (null, empty and blank values are ignored). */
    public static void addSecret(String secret) {
        if (secret == null || secret.trim().isEmpty()) {
            return;
        }
        synchronized (LOCK) {
            addSecretUnderLock(secret);
            // a secret with characters the log escapes appears escaped in a line
            addSecretUnderLock(escape(secret));
        }
    }

    private static void addSecretUnderLock(String secret) {
        for (String s : secrets) {
            if (s.equals(secret)) {
                return;
            }
        }
        String[] next = Arrays.copyOf(secrets, secrets.length + 1);
        next[secrets.length] = secret;
        // longest first, so a secret that contains another is masked whole
        Arrays.sort(next, new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return b.length() - a.length();
            }
        });
        secrets = next;
    }

    /** The number of lines one template may produce per minute before it is suppressed; 0 or less disables the limit. */
    public static void setMaxPerMinute(int max) {
        synchronized (LOCK) {
            maxPerMinute = max;
        }
    }

    /** Reports every pending suppressed-message count now (for example at shutdown). */
    public static void flushSuppressed() {
        try {
            synchronized (LOCK) {
                long now = clock.currentTimeMillis();
                for (Window w : windows.values()) {
                    if (w.suppressed > 0) {
                        reportSuppressed(w, now);
                        w.suppressed = 0;
                    }
                }
            }
        } catch (RuntimeException ignored) {
            // the log never throws into its caller
        }
    }

    static boolean isEnabled(LogLevel candidate) {
        LogLevel current = level;
        return current != LogLevel.OFF && candidate != LogLevel.OFF && candidate.ordinal() <= current.ordinal();
    }

    static void write(LogLevel lvl, String loggerName, int linesPerMinute, String template, Object[] args) {
        try {
            synchronized (LOCK) {
                long now = clock.currentTimeMillis();
                if (now >= nextSweepMillis) {
                    sweep(now);
                    nextSweepMillis = now + WINDOW_MILLIS;
                }
                if (admit(lvl, loggerName, linesPerMinute, template, now)) {
                    out.println(line(now, lvl, loggerName, format(template, args), thrown(template, args)));
                }
            }
        } catch (RuntimeException ignored) {
            // the log never throws into its caller
        }
    }

    // ---- rate limit (all under LOCK)

    private static final class Window {
        final LogLevel level;
        final String logger;
        final String template;
        final int max;
        long startMillis;
        int count;
        int suppressed;

        Window(LogLevel level, String logger, String template, int max, long startMillis) {
            this.level = level;
            this.logger = logger;
            this.template = template;
            this.max = max;
            this.startMillis = startMillis;
        }
    }

    private static boolean admit(LogLevel lvl, String loggerName, int linesPerMinute, String template, long now) {
        if (maxPerMinute <= 0 || linesPerMinute < 0) {
            return true;
        }
        int max = linesPerMinute > 0 ? Math.min(linesPerMinute, maxPerMinute) : maxPerMinute;
        // the limit is part of the key: a limited view of a logger never shares a window with the logger itself
        String key = lvl.ordinal() + "\u0000" + max + "\u0000" + loggerName + "\u0000" + template;
        Window w = windows.get(key);
        if (w == null) {
            if (windows.size() >= MAX_TRACKED_TEMPLATES) {
                return true;
            }
            w = new Window(lvl, loggerName, template, max, now);
            windows.put(key, w);
        } else if (now - w.startMillis >= WINDOW_MILLIS) {
            if (w.suppressed > 0) {
                reportSuppressed(w, now);
            }
            w.startMillis = now;
            w.count = 0;
            w.suppressed = 0;
        }
        if (w.count < w.max) {
            w.count++;
            return true;
        }
        w.suppressed++;
        return false;
    }

    /** Reports and forgets windows whose minute is over. */
    private static void sweep(long now) {
        for (Iterator<Window> it = windows.values().iterator(); it.hasNext(); ) {
            Window w = it.next();
            if (now - w.startMillis >= WINDOW_MILLIS) {
                if (w.suppressed > 0) {
                    reportSuppressed(w, now);
                }
                it.remove();
            }
        }
    }

    private static void reportSuppressed(Window w, long now) {
        if (isEnabled(w.level)) {
            out.println(line(now, w.level, w.logger, "Suppressed " + w.suppressed + " more message(s) like \""
                    + escape(w.template) + "\" logged more than " + w.max + " times in a minute", null));
        }
    }

    // ---- formatting

    private static String line(long now, LogLevel lvl, String loggerName, String message, Throwable thrown) {
        StringBuilder sb = new StringBuilder(64 + message.length());
        appendUtc(sb, now).append(" [apm-agent] ").append(lvl.name());
        for (int i = lvl.name().length(); i < 5; i++) {
            sb.append(' ');
        }
        sb.append(' ').append(loggerName).append(" - ").append(message);
        if (thrown != null) {
            StringWriter trace = new StringWriter();
            thrown.printStackTrace(new PrintWriter(trace));
            sb.append(System.lineSeparator()).append(escape(trace.toString().trim(), true));
        }
        String text = sb.toString();
        for (String secret : secrets) {
            if (text.contains(secret)) {
                text = text.replace(secret, REDACTED);
            }
        }
        return text;
    }

    /** The message: the template with each {@code {}} replaced by the next argument, all of it {@link #escape escaped}. */
    static String format(String template, Object[] args) {
        if (template == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(template.length() + 32);
        int argIndex = 0;
        int n = args == null ? 0 : args.length;
        int literalStart = 0;
        for (int i = 0; i < template.length() && argIndex < n; i++) {
            if (template.charAt(i) == '{' && i + 1 < template.length() && template.charAt(i + 1) == '}') {
                sb.append(escape(template.substring(literalStart, i)));
                sb.append(escape(safeToString(args[argIndex++])));
                i++;
                literalStart = i + 1;
            }
        }
        return sb.append(escape(template.substring(literalStart))).toString();
    }

    /**
     * {@code text} with every character that is not printable written as <code>&#92;uXXXX</code> (four lower-case hex
     * digits): C0 controls (line breaks, tab, ESC), DEL, C1 controls (U+0080 to U+009F, among them NEL U+0085 and
     * CSI U+009B), the line and paragraph separators U+2028 and U+2029, format characters (bidi controls such as U+202E
     * and U+2066 to U+2069, zero-width characters, U+FEFF) and unpaired surrogates. Letters, digits, punctuation and
     * symbols of every script stay as they are; a backslash is not doubled (the escaping is for safety, not to be
     * reversed). Returns {@code text} itself when nothing needs escaping.
     */
    public static String escape(String text) {
        return escape(text, false);
    }

    private static String escape(String text, boolean keepLineBreaksAndTabs) {
        if (text == null) {
            return null;
        }
        int i = 0;
        int len = text.length();
        while (i < len && !needsEscape(text, i, keepLineBreaksAndTabs)) {
            i++;
        }
        if (i == len) {
            return text;
        }
        StringBuilder sb = new StringBuilder(len + 16).append(text, 0, i);
        for (; i < len; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(text.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, text.charAt(i + 1));
                if (Character.getType(cp) == Character.FORMAT) {
                    appendEscaped(sb, c);
                    appendEscaped(sb, text.charAt(i + 1));
                } else {
                    sb.append(c).append(text.charAt(i + 1));
                }
                i++;
            } else if (needsEscape(text, i, keepLineBreaksAndTabs)) {
                appendEscaped(sb, c);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean needsEscape(String text, int i, boolean keepLineBreaksAndTabs) {
        char c = text.charAt(i);
        if (keepLineBreaksAndTabs && (c == '\n' || c == '\r' || c == '\t')) {
            return false;
        }
        if (Character.isSurrogate(c)) {
            boolean paired = Character.isHighSurrogate(c)
                    ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                    : i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
            if (!paired) {
                return true;
            }
            int cp = text.codePointAt(Character.isHighSurrogate(c) ? i : i - 1);
            return Character.getType(cp) == Character.FORMAT;
        }
        return mustEscape(c);
    }

    /** Whether a character of the BMP that is not a surrogate must be escaped. */
    private static boolean mustEscape(char c) {
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            return true;
        }
        if (c < 0xa0) {
            return false;
        }
        int type = Character.getType(c);
        return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.SURROGATE;
    }

    private static void appendEscaped(StringBuilder sb, char c) {
        sb.append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) {
            sb.append(Character.forDigit((c >> shift) & 0xf, 16));
        }
    }

    /** A trailing Throwable argument that no placeholder consumed. */
    private static Throwable thrown(String template, Object[] args) {
        if (args == null || args.length == 0 || !(args[args.length - 1] instanceof Throwable)) {
            return null;
        }
        int placeholders = 0;
        for (int i = template.indexOf("{}"); i >= 0; i = template.indexOf("{}", i + 2)) {
            placeholders++;
        }
        return placeholders < args.length ? (Throwable) args[args.length - 1] : null;
    }

    private static String safeToString(Object o) {
        try {
            return String.valueOf(o);
        } catch (RuntimeException e) {
            return "[toString() of " + o.getClass().getName() + " failed: " + e + "]";
        }
    }

    // ---- outputs (under LOCK)

    private static PrintStream openAppending(File file) throws IOException {
        File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs() && !parent.isDirectory()) {
            throw new IOException("cannot create directory " + parent);
        }
        return new PrintStream(new FileOutputStream(file, true), true, "UTF-8");
    }

    /** Switches to {@code stream}, or to {@code file} which the log then owns and closes when replaced. */
    private static void replaceOutput(PrintStream stream, PrintStream file) {
        PrintStream previous = ownedFile;
        out = file != null ? file : stream;
        ownedFile = file;
        if (previous != null && previous != file) {
            previous.close();
        }
    }

    /**
     * Appends {@code epochMillis} as {@code yyyy-MM-ddTHH:mm:ss.SSSZ} in UTC (proleptic Gregorian calendar, years 0 to
     * 9999). Written out rather than a {@code SimpleDateFormat}, whose calendar, time zone and locale data were 55 ms
     * of the agent's start-up on one core, spent before its first log line.
     */
    static StringBuilder appendUtc(StringBuilder sb, long epochMillis) {
        long days = Math.floorDiv(epochMillis, 86_400_000L);
        long millisOfDay = Math.floorMod(epochMillis, 86_400_000L);
        // civil date from days since 1970-01-01, in 400-year eras of 146,097 days starting on March 1st
        long shifted = days + 719_468;
        long era = Math.floorDiv(shifted, 146_097);
        long dayOfEra = shifted - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthFromMarch = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        long month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        appendDigits(sb, year, 4).append('-');
        appendDigits(sb, month, 2).append('-');
        appendDigits(sb, day, 2).append('T');
        appendDigits(sb, millisOfDay / 3_600_000, 2).append(':');
        appendDigits(sb, millisOfDay / 60_000 % 60, 2).append(':');
        appendDigits(sb, millisOfDay / 1_000 % 60, 2).append('.');
        return appendDigits(sb, millisOfDay % 1_000, 3).append('Z');
    }

    private static StringBuilder appendDigits(StringBuilder sb, long value, int width) {
        for (long scale = pow10(width - 1); scale > 0; scale /= 10) {
            sb.append((char) ('0' + value / scale % 10));
        }
        return sb;
    }

    private static long pow10(int exponent) {
        long result = 1;
        for (int i = 0; i < exponent; i++) {
            result *= 10;
        }
        return result;
    }

    // ---- tests

    static void setClock(Clock testClock) {
        synchronized (LOCK) {
            clock = testClock;
            nextSweepMillis = 0;
        }
    }

    /** Back to the start-up state: INFO to System.out, default rate limit, no secrets, system clock. */
    static void reset() {
        synchronized (LOCK) {
            level = LogLevel.INFO;
            replaceOutput(System.out, null);
            secrets = new String[0];
            maxPerMinute = DEFAULT_MAX_PER_MINUTE;
            clock = SYSTEM_CLOCK;
            nextSweepMillis = 0;
            windows.clear();
        }
    }
}
