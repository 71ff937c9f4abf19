package testapp.httpclient.scenario;

import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * One library's cases, loaded in the library's own class loader (see {@code HttpClientApp}). {@code apply("cases")}
 * lists them; {@code apply("case|base|tag")} runs one and returns what the application saw, or {@code threw <class>}
 * for the exception the library threw (the application sees exactly that class: the agent rethrows unchanged).
 */
public abstract class Scenario implements Function<String, String> {

    /** A traceparent the application sets itself; the downstream service must see exactly this one. */
    public static final String APP_TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    /** Comma-separated cases run inside a traced request, then {@code direct:} and those run with nothing active. */
    protected abstract String cases();

    @Override
    public final String apply(String in) {
        if (in.equals("cases")) {
            return cases();
        }
        String[] p = in.split("\\|");
        try {
            return run(p[0], p[1], p[2]);
        } catch (Throwable t) {
            Throwable cause = t instanceof java.util.concurrent.ExecutionException && t.getCause() != null ? t.getCause() : t;
            StackTraceElement[] at = cause.getStackTrace();
            return "threw " + cause.getClass().getName() + (at.length == 0 ? "" : " at " + at[0]);
        }
    }

    /** How {@code get} sends its request. */
    protected enum How {
        /** The body read (through the future, for an async client). */
        PLAIN,
        /** The body never read, the response closed (a synchronous client). */
        UNREAD,
        /** With a callback that throws, on a client of its own: 4.1 lets the exception reach its I/O reactor. */
        THROWING_CALLBACK
    }

    /**
     * One GET of {@code url}, with the application's own {@code traceparent} when not null: the status and body,
     * marked if the client wrote a header into the application's request object (see {@link #mark}).
     */
    protected String get(String url, String traceparent, How how) throws Exception {
        throw new UnsupportedOperationException("no GET case for " + getClass().getSimpleName());
    }

    /** One call of an advised exec-chain handler over a stub chain (synchronous clients). */
    protected Callable<?> handler(String tag) throws Exception {
        throw new UnsupportedOperationException("no exec-chain handler case for " + getClass().getSimpleName());
    }

    protected String run(String c, String base, String tag) throws Exception {
        String down = downstream(base, tag);
        switch (c) {
            case "ok":
            case "untraced":
                return get(down, null, How.PLAIN);
            case "notFound":
                return get(down + "&status=404", null, How.PLAIN);
            case "serverError":
                return get(down + "&status=500", null, How.PLAIN);
            case "refused":
                return get("http://127.0.0.1:" + closedPort() + "/refused?case=" + tag + "&q=1", null, How.PLAIN);
            case "timeout":
                return get(down + "&sleep=2000", null, How.PLAIN);
            case "unread":
                return get(down, null, How.UNREAD) + " then " + get(downstream(base, tag + "-next"), null, How.PLAIN);
            case "appTraceparent":
                return get(down, APP_TRACEPARENT, How.PLAIN);
            case "redirect":
                return get(base + "/redirect?case=" + tag + "&q=1", null, How.PLAIN);
            case "callbackThrows":
                return get(down, null, How.THROWING_CALLBACK);
            case "instrumented":
                return "called " + handler(tag).call();
            case "allocation":
                return allocatedBy(handler(tag), 20_000);
            default:
                return "unknown case " + c;
        }
    }

    /** The cases of a synchronous client. */
    static final String CLASSIC_CASES =
            "ok,notFound,serverError,refused,timeout,unread,appTraceparent,redirect,instrumented,direct:untraced,allocation";
    /** The cases of an asynchronous client. */
    static final String ASYNC_CASES = "ok,serverError,refused,appTraceparent,callbackThrows,direct:untraced";

    static String mark(String traceparent, Object headerInApplicationRequest) {
        return traceparent == null && headerInApplicationRequest != null ? " APPLICATION-REQUEST-MODIFIED" : "";
    }

    /** {@code /downstream} for the case {@code tag}; the test finds {@code case=<tag>&} in the span's URL. */
    static String downstream(String base, String tag) {
        return base + "/downstream?case=" + tag + "&q=1";
    }

    /** A port nothing listens on. */
    static int closedPort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Bytes this thread allocated over {@code calls} runs of {@code call}, after as many to warm up. */
    static String allocatedBy(Callable<?> call, int calls) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long allocated = 0;
        for (int round = 0; round < 3; round++) {
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < calls; i++) {
                call.call();
            }
            allocated = mx.getThreadAllocatedBytes(tid) - before;
        }
        return "allocated " + allocated + " bytes in " + calls + " calls";
    }
}
