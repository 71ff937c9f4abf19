package dev.apmagent.bridge;

/**
 * The agent's side of one {@link Bridge} hook: implemented by a plugin (on the system class path, where it sees the
 * tracer) and registered when its instrumentation is installed. Arguments are the advised method's, as {@code Object}
 * because the bridge knows no types but the JDK's. Implementations never throw and never change an argument.
 */
public abstract class BridgeHandler {

    private final int hook;

    protected BridgeHandler(int hook) {
        this.hook = hook;
    }

    public final int hook() {
        return hook;
    }

    /** On entering the advised method; the result is passed to {@link #exit}. */
    public Object enter(Object self, Object arg0, Object arg1) {
        return null;
    }

    /** See {@link Bridge#replacement}: {@code arg} unless this handler replaced it. */
    public Object replacement(Object enterState, Object arg) {
        return arg;
    }

    /** On leaving the advised method, normally or by {@code thrown}. */
    public void exit(Object enterState, Object self, Object arg0, Object result, Throwable thrown) {
    }
}
