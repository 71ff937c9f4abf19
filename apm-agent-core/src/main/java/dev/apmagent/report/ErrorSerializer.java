package dev.apmagent.report;

import dev.apmagent.trace.ErrorEvent;

/**
 * Writes one {@code {"error":{...}}} line: ids, the transaction it happened in, culprit, and the exception with its
 * stack trace (at most {@code stackTraceLimit} frames) and its causes (at most {@link #MAX_CAUSES}, cycles cut).
 * Reporter thread only. It allocates only what {@link Throwable#getStackTrace()} allocates (a copy of the frame
 * array per throwable, and the frames themselves the first time a throwable's trace is read) and whatever an
 * application's {@code getMessage()} override allocates.
 */
final class ErrorSerializer {

    static final int MAX_CAUSES = 16;

    private static final byte[] ERROR = JsonHelper.name("error");
    private static final byte[] ID = JsonHelper.name("id");
    private static final byte[] TIMESTAMP = JsonHelper.name("timestamp");
    private static final byte[] TRACE_ID = JsonHelper.name("trace_id");
    private static final byte[] TRANSACTION_ID = JsonHelper.name("transaction_id");
    private static final byte[] PARENT_ID = JsonHelper.name("parent_id");
    private static final byte[] TRANSACTION = JsonHelper.name("transaction");
    private static final byte[] NAME = JsonHelper.name("name");
    private static final byte[] TYPE = JsonHelper.name("type");
    private static final byte[] SAMPLED = JsonHelper.name("sampled");
    private static final byte[] CULPRIT = JsonHelper.name("culprit");
    private static final byte[] EXCEPTION = JsonHelper.name("exception");
    private static final byte[] MESSAGE = JsonHelper.name("message");
    private static final byte[] HANDLED = JsonHelper.name("handled");
    private static final byte[] STACKTRACE = JsonHelper.name("stacktrace");
    private static final byte[] CAUSE = JsonHelper.name("cause");
    private static final byte[] CLASSNAME = JsonHelper.name("classname");
    private static final byte[] FUNCTION = JsonHelper.name("function");
    private static final byte[] FILENAME = JsonHelper.name("filename");
    private static final byte[] LINENO = JsonHelper.name("lineno");
    private static final byte[] LIBRARY_FRAME = JsonHelper.name("library_frame");

    private static final String[] LIBRARY_PREFIXES = {
        "java.", "javax.", "jakarta.", "jdk.", "sun.", "com.sun.", "kotlin.", "scala.", "org.apache.", "org.springframework.",
        "org.eclipse.jetty.", "io.netty.", "com.zaxxer.", "org.h2.", "org.postgresql.", "org.mariadb.", "com.mysql.",
        "dev.apmagent."
    };

    private final StringBuilder culprit = new StringBuilder(256);
    private final Throwable[] chain = new Throwable[MAX_CAUSES + 1];

    void serialize(ErrorEvent e, JsonHelper h) {
        h.startObject();
        h.field(ERROR);
        h.startObject();
        h.field(ID);
        h.hex128(e.idHigh(), e.idLow());
        h.field(TIMESTAMP);
        h.number(e.timestampMicros());
        boolean traced = (e.traceIdHigh() != 0 || e.traceIdLow() != 0) && e.parentId() != 0;
        if (traced) {
            // the schema wants trace_id, parent_id (and transaction_id) together or not at all
            h.field(TRACE_ID);
            h.hex128(e.traceIdHigh(), e.traceIdLow());
            h.field(PARENT_ID);
            h.hex64(e.parentId());
            if (e.transactionId() != 0) {
                h.field(TRANSACTION_ID);
                h.hex64(e.transactionId());
            }
        }
        if (traced && e.hasTransaction()) {
            h.field(TRANSACTION);
            h.startObject();
            if (e.transactionName() != null && e.transactionName().length() > 0) {
                h.field(NAME);
                h.string(e.transactionName());
            }
            h.optionalString(TYPE, e.transactionType());
            h.field(SAMPLED);
            h.bool(e.transactionSampled());
            h.endObject();
        }
        Throwable t = e.exception();
        StackTraceElement[] frames = t == null ? null : t.getStackTrace();
        CharSequence c = e.culprit() != null ? e.culprit() : culprit(frames);
        if (c != null && c.length() > 0) {
            h.field(CULPRIT);
            h.string(c);
        }
        h.field(EXCEPTION);
        if (t == null) {
            h.startObject();
            h.field(MESSAGE);
            h.string("(no exception)");
            h.endObject();
        } else {
            h.startObject();
            exceptionBody(t, frames, e.stackTraceLimit(), h);
            h.field(HANDLED);
            h.bool(e.handled());
            int causes = collectCauses(t);
            if (causes > 0) {
                h.field(CAUSE);
                h.startArray();
                for (int i = 1; i <= causes; i++) {
                    Throwable cause = chain[i];
                    h.startObject();
                    exceptionBody(cause, cause.getStackTrace(), e.stackTraceLimit(), h);
                    h.endObject();
                }
                h.endArray();
            }
            java.util.Arrays.fill(chain, null);
            h.endObject();
        }
        h.endObject();
        h.endObject();
        h.newLine();
    }

    private static void exceptionBody(Throwable t, StackTraceElement[] frames, int limit, JsonHelper h) {
        String message = message(t);
        if (message != null) {
            h.field(MESSAGE);
            h.string(message, JsonHelper.LONG_TEXT_MAX);
        }
        h.field(TYPE);
        h.string(t.getClass().getName());
        if (frames != null && frames.length > 0 && limit > 0) {
            h.field(STACKTRACE);
            h.startArray();
            int n = Math.min(frames.length, limit);
            for (int i = 0; i < n; i++) {
                frame(frames[i], h);
            }
            h.endArray();
        }
    }

    private static String message(Throwable t) {
        try {
            return t.getMessage();
        } catch (RuntimeException e) {
            return null; // a broken getMessage() override must not lose the error
        }
    }

    private static void frame(StackTraceElement f, JsonHelper h) {
        h.startObject();
        h.field(CLASSNAME);
        h.string(f.getClassName());
        h.field(FUNCTION);
        h.string(f.getMethodName());
        if (f.getFileName() != null) {
            h.field(FILENAME);
            h.string(f.getFileName());
        }
        if (f.getLineNumber() >= 0) {
            h.field(LINENO);
            h.number(f.getLineNumber());
        }
        h.field(LIBRARY_FRAME);
        h.bool(isLibraryFrame(f.getClassName()));
        h.endObject();
    }

    static boolean isLibraryFrame(String className) {
        for (String prefix : LIBRARY_PREFIXES) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Fills chain[1..n] with the causes of t (cycle-safe, bounded); returns n. */
    private int collectCauses(Throwable t) {
        chain[0] = t;
        int n = 0;
        Throwable cause = t.getCause();
        while (cause != null && n < MAX_CAUSES && !seen(cause, n)) {
            chain[++n] = cause;
            cause = cause.getCause();
        }
        return n;
    }

    private boolean seen(Throwable t, int upTo) {
        for (int i = 0; i <= upTo; i++) {
            if (chain[i] == t) {
                return true;
            }
        }
        return false;
    }

    /** {@code Class.method(File.java:43)} of the first application frame, else of the first frame. */
    private CharSequence culprit(StackTraceElement[] frames) {
        if (frames == null || frames.length == 0) {
            return null;
        }
        StackTraceElement pick = frames[0];
        for (StackTraceElement f : frames) {
            if (!isLibraryFrame(f.getClassName())) {
                pick = f;
                break;
            }
        }
        culprit.setLength(0);
        culprit.append(pick.getClassName()).append('.').append(pick.getMethodName()).append('(');
        if (pick.getFileName() != null) {
            culprit.append(pick.getFileName());
            if (pick.getLineNumber() >= 0) {
                culprit.append(':').append(pick.getLineNumber());
            }
        } else {
            culprit.append("Unknown Source");
        }
        return culprit.append(')');
    }
}
