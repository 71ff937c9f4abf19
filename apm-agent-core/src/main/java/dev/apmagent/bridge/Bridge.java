package dev.apmagent.bridge;

/**
 * What advice inlined into a JDK class calls. Classes that the bootstrap (or platform) loader defines cannot see the
 * agent, which lives on the system class path; this class and {@link BridgeHandler} are the only ones of the agent's
 * that the agent appends to the bootstrap search path (at start-up and on attach), and they hold nothing but a table
 * of handlers that the agent fills once it is ready. Until then, and for a hook nobody registered, {@link #enter} and
 * {@link #exit} return at once.
 *
 * <p>Each JDK method the agent advises has a hook number, listed here so that the numbers stay unique; its advice
 * passes the number as a constant, so after inlining the lookup is a volatile read and an array load:
 * <pre>{@code
 * @Advice.OnMethodEnter(suppress = Throwable.class)
 * static Object enter(@Advice.This Object executor, @Advice.Argument(0) Runnable task) {
 *     return Bridge.enter(Bridge.EXECUTOR_EXECUTE, executor, task, null);
 * }
 * }</pre>
 * Handlers are exception barriers of their own; the advice's {@code suppress = Throwable.class} is the last line.
 */
public final class Bridge {

    /** {@code ThreadPoolExecutor.execute(Runnable)}. */
    public static final int EXECUTOR_EXECUTE = 0;
    /** {@code ThreadPoolExecutor.beforeExecute(Thread, Runnable)}, on the worker thread before the task runs. */
    public static final int EXECUTOR_BEFORE_EXECUTE = 1;
    /** {@code ThreadPoolExecutor.afterExecute(Runnable, Throwable)}, on the worker thread after the task ran. */
    public static final int EXECUTOR_AFTER_EXECUTE = 2;

    /** {@code ScheduledThreadPoolExecutor.delayedExecute(RunnableScheduledFuture)}: every schedule and submit. */
    public static final int SCHEDULED_DELAYED_EXECUTE = 3;
    /** {@code ThreadPoolExecutor.reject(Runnable)}: the task did not join the pool (whatever the policy did with it). */
    public static final int EXECUTOR_REJECT = 4;
    /** {@code ThreadPoolExecutor.remove(Runnable)}: a queued task taken out, never to run. */
    public static final int EXECUTOR_REMOVE = 5;
    /** {@code ThreadPoolExecutor.shutdownNow()}: the queued tasks it returns will not run. */
    public static final int EXECUTOR_SHUTDOWN_NOW = 6;
    /** {@code ScheduledThreadPoolExecutor$ScheduledFutureTask.cancel(boolean)}. */
    public static final int SCHEDULED_TASK_CANCEL = 7;
    /** {@code ForkJoinPool}'s submission of a {@code ForkJoinTask} ({@code externalSubmit}, {@code poolSubmit}). */
    public static final int FORK_JOIN_SUBMIT = 8;
    /** {@code ForkJoinTask.fork()}. */
    public static final int FORK_JOIN_FORK = 9;
    /** {@code ForkJoinTask.doExec()}: a task runs, on a worker or on a thread that helps or joins. */
    public static final int FORK_JOIN_EXEC = 10;
    /** {@code CompletableFuture$ThreadPerTaskExecutor.execute(Runnable)} (Java 8 to 18 with a common pool of one). */
    public static final int ASYNC_TASK_SUBMIT = 11;
    /** {@code run()} of {@code CompletableFuture}'s async tasks ({@code AsyncSupply}, {@code AsyncRun}, {@code Completion}). */
    public static final int ASYNC_TASK_RUN = 12;
    /** {@code VirtualThread.start(ThreadContainer)} (Java 21+). */
    public static final int VIRTUAL_THREAD_START = 13;
    /** {@code VirtualThread.run(Runnable)}, on the virtual thread (Java 21+). */
    public static final int VIRTUAL_THREAD_RUN = 14;
    /** {@code Thread.start()} and {@code Thread.start(ThreadContainer)} of a platform thread. */
    public static final int THREAD_START = 15;
    /** {@code Thread.run()}, on the started thread. */
    public static final int THREAD_RUN = 16;
    /** {@code Thread.exit()}, on the thread as it ends. */
    public static final int THREAD_EXIT = 17;
    /** {@code ThreadPoolExecutor.addWorker(Runnable, boolean)}: the pool starts a worker thread. */
    public static final int EXECUTOR_ADD_WORKER = 18;

    /** {@code ThreadPoolExecutor$Worker.run()}: a worker thread starts, with its first task, and ends. */
    public static final int EXECUTOR_WORKER_RUN = 19;
    /** {@code ThreadPoolExecutor.getTask()}: a worker is done with its task and takes the next one. */
    public static final int EXECUTOR_GET_TASK = 20;
    /** {@code sun.net.www.protocol.http.HttpURLConnection.connect()} (HTTPS: its delegate). */
    public static final int URLCONNECTION_CONNECT = 21;
    /** {@code sun.net.www.protocol.http.HttpURLConnection.getOutputStream()}. */
    public static final int URLCONNECTION_OUTPUT = 22;
    /** {@code sun.net.www.protocol.http.HttpURLConnection.getInputStream()}. */
    public static final int URLCONNECTION_INPUT = 23;
    /** {@code java.net.HttpURLConnection.getResponseCode()}. */
    public static final int URLCONNECTION_RESPONSE_CODE = 24;
    /** {@code sun.net.www.protocol.http.HttpURLConnection.disconnect()}. */
    public static final int URLCONNECTION_DISCONNECT = 25;
    /** {@code jdk.internal.net.http.HttpClientImpl.send(HttpRequest, BodyHandler)}. */
    public static final int HTTPCLIENT_SEND = 26;
    /** {@code jdk.internal.net.http.HttpClientImpl.sendAsync(HttpRequest, BodyHandler[, PushPromiseHandler])}. */
    public static final int HTTPCLIENT_SEND_ASYNC = 27;

    static final int HOOKS = 28;

    /** Replaced as a whole on registration (start-up only); read by every advised call. */
    private static volatile BridgeHandler[] handlers = new BridgeHandler[HOOKS];

    private Bridge() {
    }

    /** Enter advice of hook {@code hook}: what the handler returns is handed to {@link #exit}. */
    public static Object enter(int hook, Object self, Object arg0, Object arg1) {
        BridgeHandler handler = handlers[hook];
        return handler == null ? null : handler.enter(self, arg0, arg1);
    }

    /** Exit advice of hook {@code hook}; {@code enterState} is what {@link #enter} returned. */
    public static void exit(int hook, Object enterState, Object self, Object arg0, Object result, Throwable thrown) {
        BridgeHandler handler = handlers[hook];
        if (handler != null) {
            handler.exit(enterState, self, arg0, result, thrown);
        }
    }

    /**
     * For enter advice that replaces an argument (a request the JDK's HTTP client cannot be given headers on, so it is
     * copied with them): what hook {@code hook}'s handler puts in place of {@code arg} for the call that entered with
     * {@code enterState}; {@code arg} itself when nothing is replaced (always, when {@code enterState} is null).
     */
    public static Object replacement(int hook, Object enterState, Object arg) {
        if (enterState == null) {
            return arg;
        }
        BridgeHandler handler = handlers[hook];
        return handler == null ? arg : handler.replacement(enterState, arg);
    }

    /** Sets the handler of its hook (the agent's start-up); a second handler for the same hook is refused. */
    public static synchronized void register(BridgeHandler handler) {
        int hook = handler.hook();
        if (hook < 0 || hook >= HOOKS) {
            throw new IllegalArgumentException("no such bridge hook: " + hook);
        }
        BridgeHandler[] copy = handlers.clone();
        if (copy[hook] != null && copy[hook] != handler) {
            throw new IllegalStateException("bridge hook " + hook + " already has a handler: " + copy[hook]);
        }
        copy[hook] = handler;
        handlers = copy;
    }

    /** Removes the handler of its hook (uninstall and tests); advice already inlined then does nothing. */
    public static synchronized void unregister(BridgeHandler handler) {
        int hook = handler.hook();
        BridgeHandler[] copy = handlers.clone();
        if (hook >= 0 && hook < HOOKS && copy[hook] == handler) {
            copy[hook] = null;
            handlers = copy;
        }
    }
}
