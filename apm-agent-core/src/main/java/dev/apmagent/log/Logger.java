package dev.apmagent.log;

/**
 * The agent's own logger. It depends on no logging framework of the application. Messages use {@code {}}
 * placeholders; a trailing {@link Throwable} argument is printed with its stack trace. The message template (the
 * first argument) is also the key of the rate limit, so pass variable text as arguments, not concatenated into it.
 * Never call it on an application thread's hot path: count instead, and report periodically.
 */
public final class Logger {

    private final String name;

    Logger(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public boolean isEnabled(LogLevel level) {
        return AgentLog.isEnabled(level);
    }

    public boolean isDebugEnabled() {
        return AgentLog.isEnabled(LogLevel.DEBUG);
    }

    public boolean isTraceEnabled() {
        return AgentLog.isEnabled(LogLevel.TRACE);
    }

    public void error(String message, Object... args) {
        log(LogLevel.ERROR, message, args);
    }

    public void warn(String message, Object... args) {
        log(LogLevel.WARN, message, args);
    }

    public void info(String message, Object... args) {
        log(LogLevel.INFO, message, args);
    }

    public void debug(String message, Object... args) {
        log(LogLevel.DEBUG, message, args);
    }

    public void trace(String message, Object... args) {
        log(LogLevel.TRACE, message, args);
    }

    public void log(LogLevel level, String message, Object... args) {
        if (AgentLog.isEnabled(level)) {
            AgentLog.write(level, name, message, args);
        }
    }
}
