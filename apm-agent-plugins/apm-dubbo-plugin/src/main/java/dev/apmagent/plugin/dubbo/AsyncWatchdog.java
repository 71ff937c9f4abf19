package dev.apmagent.plugin.dubbo;

import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The backstop for asynchronous invocations whose result never arrives: a fixed table of pending invocations that one
 * daemon thread scans every {@value #TICK_MILLIS} ms, ending those past their deadline. Normally Dubbo completes
 * every consumer future itself (on response or on its own timeout), so the watchdog only matters for a provider whose
 * {@code CompletableFuture} or {@code AsyncContext} is never completed, or a protocol without timeouts.
 *
 * <p>Application threads only claim a slot with one CAS (probing at most {@value #PROBES} slots from a rotating
 * start); when none is free the invocation is counted as unwatched and left to Dubbo's own completion. No lock, no
 * allocation, no blocking on the application's side; memory is bounded by the table.
 */
final class AsyncWatchdog {

    static final int CAPACITY = 8192;
    static final int PROBES = 8;
    static final long TICK_MILLIS = 100;

    private static final AtomicReferenceArray<PendingInvocation> slots = new AtomicReferenceArray<PendingInvocation>(CAPACITY);
    private static final AtomicInteger cursor = new AtomicInteger();
    private static final AtomicBoolean started = new AtomicBoolean();

    private AsyncWatchdog() {
    }

    /** Watches {@code pending} until it completes or its deadline passes; false when the table is full (counted). */
    static boolean watch(PendingInvocation pending) {
        if (!started.get() && started.compareAndSet(false, true)) {
            start();
        }
        int start = cursor.getAndIncrement();
        for (int i = 0; i < PROBES; i++) {
            int index = (start + i) & (CAPACITY - 1);
            if (slots.get(index) == null && slots.compareAndSet(index, null, pending)) {
                return true;
            }
        }
        DubboPluginHealth.countAsyncUnwatched();
        return false;
    }

    /** Number of watched invocations (tests and diagnostics; scans the table). */
    static int watched() {
        int n = 0;
        for (int i = 0; i < CAPACITY; i++) {
            if (slots.get(i) != null) {
                n++;
            }
        }
        return n;
    }

    /** One scan: forgets completed invocations, ends expired ones. Runs on the watchdog thread (and in tests). */
    static void scan(long nowNanos) {
        for (int i = 0; i < CAPACITY; i++) {
            PendingInvocation p = slots.get(i);
            if (p == null) {
                continue;
            }
            if (p.isDone()) {
                slots.compareAndSet(i, p, null);
            } else if (nowNanos - p.deadlineNanos() >= 0) {
                slots.compareAndSet(i, p, null);
                p.expire();
            }
        }
    }

    /**
     * Starts the watchdog thread, once. It is created by whichever application thread makes the first asynchronous
     * call, so it must not inherit anything of that thread's application: it runs in the root thread group, with no
     * context class loader and no inherited thread locals, and is created in a privileged block so that its inherited
     * access control context holds no application protection domain (which would pin a web application's class loader).
     */
    private static void start() {
        AccessController.doPrivileged(new PrivilegedAction<Void>() {
            @Override
            public Void run() {
                ThreadGroup root = Thread.currentThread().getThreadGroup();
                while (root.getParent() != null) {
                    root = root.getParent();
                }
                Runnable loop = new Runnable() {
                    @Override
                    public void run() {
                        while (true) {
                            try {
                                scan(System.nanoTime());
                            } catch (Throwable t) {
                                DubboPluginHealth.countFailure();
                            }
                            LockSupport.parkNanos(TICK_MILLIS * 1_000_000L);
                        }
                    }
                };
                Thread thread = withoutInheritedThreadLocals(root, loop, "apm-dubbo-async-watchdog");
                thread.setDaemon(true);
                thread.setContextClassLoader(null);
                thread.start();
                return null;
            }
        });
    }

    /**
     * A thread that does not copy the creating application thread's inheritable thread locals (an MDC or a request
     * context would otherwise pin the application's class loader for as long as the thread lives): the Java 9+
     * constructor with {@code inheritThreadLocals=false}; on Java 8, which has none, a plain thread.
     */
    private static Thread withoutInheritedThreadLocals(ThreadGroup group, Runnable task, String name) {
        try {
            return Thread.class.getConstructor(ThreadGroup.class, Runnable.class, String.class, long.class, boolean.class)
                    .newInstance(group, task, name, 0L, Boolean.FALSE);
        } catch (Exception java8) {
            return new Thread(group, task, name);
        }
    }
}
