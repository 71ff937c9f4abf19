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

    protected abstract String run(String c, String base, String tag) throws Exception;

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

    /**
     * The cases of a synchronous client, for {@code get} (one GET of {@code url}, with the application's own
     * {@code traceparent} when not null, its body read or not: the status and body, marked if the client wrote a
     * header into the application's request object) and {@code handler} (one call of an advised exec-chain handler
     * over a stub chain).
     */
    public abstract static class Classic extends Scenario {

        @Override
        protected final String cases() {
            return "ok,notFound,serverError,refused,timeout,unread,appTraceparent,redirect,instrumented,direct:untraced,allocation";
        }

        protected abstract String get(String url, String traceparent, boolean read) throws Exception;

        protected abstract Callable<?> handler(String tag) throws Exception;

        @Override
        protected final String run(String c, String base, String tag) throws Exception {
            String down = downstream(base, tag);
            switch (c) {
                case "ok":
                case "untraced":
                    return get(down, null, true);
                case "notFound":
                    return get(down + "&status=404", null, true);
                case "serverError":
                    return get(down + "&status=500", null, true);
                case "refused":
                    return get(refused(tag), null, true);
                case "timeout":
                    return get(down + "&sleep=2000", null, true);
                case "unread":
                    return get(down, null, false) + " then " + get(downstream(base, tag + "-next"), null, true);
                case "appTraceparent":
                    return get(down, APP_TRACEPARENT, true);
                case "redirect":
                    return get(base + "/redirect?case=" + tag + "&q=1", null, true);
                case "instrumented":
                    return "called " + handler(tag).call();
                case "allocation":
                    return allocatedBy(handler(tag), 20_000);
                default:
                    return "unknown case " + c;
            }
        }

        static String mark(String traceparent, Object headerInApplicationRequest) {
            return traceparent == null && headerInApplicationRequest != null ? " APPLICATION-REQUEST-MODIFIED" : "";
        }
    }

    /**
     * The cases of an asynchronous client, for {@code get} (one GET of {@code url} through the future, with the
     * application's own {@code traceparent} when not null, and a callback that throws when asked; that one runs on a
     * client of its own, since 4.1 lets the exception reach its I/O reactor).
     */
    public abstract static class Async extends Scenario {

        @Override
        protected final String cases() {
            return "ok,serverError,refused,appTraceparent,callbackThrows,direct:untraced";
        }

        protected abstract String get(String url, String traceparent, boolean throwingCallback) throws Exception;

        @Override
        protected final String run(String c, String base, String tag) throws Exception {
            String down = downstream(base, tag);
            switch (c) {
                case "ok":
                case "untraced":
                    return get(down, null, false);
                case "serverError":
                    return get(down + "&status=500", null, false);
                case "refused":
                    return get(refused(tag), null, false);
                case "appTraceparent":
                    return get(down, APP_TRACEPARENT, false);
                case "callbackThrows":
                    return get(down, null, true);
                default:
                    return "unknown case " + c;
            }
        }
    }

    static String refused(String tag) throws java.io.IOException {
        return "http://127.0.0.1:" + closedPort() + "/refused?case=" + tag + "&q=1";
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
