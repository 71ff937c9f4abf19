package dev.apmagent.log;

/**
 * The agent's own logger. It depends on no logging framework of the application. Messages use {@code {}}
 * placeholders; a trailing {@link Throwable} argument is printed with its stack trace. The message template (the
 * first argument) is also the key of the rate limit, so pass variable text as arguments, not concatenated into it.
 * Never call it on an application thread's hot path: count instead, and report periodically.
 */
public final class Logger {

    private final String name;
    /** Lines per minute and message template this logger may write; 0 for the log's default, -1 for no limit. */
    private final int linesPerMinute;

    Logger(String name) {
        this(name, 0);
    }

    private Logger(String name, int linesPerMinute) {
        this.name = name;
        this.linesPerMinute = linesPerMinute;
    }

    /**
     * The same logger, with a stricter rate limit: at most {@code linesPerMinute} lines per message template per minute
     * (never more than the log's own limit), then one line saying how many were suppressed. For the agent's threads'
     * recurring problems, such as an APM Server that keeps refusing events: put what distinguishes one kind of problem
     * from another into the template, and the rest into the arguments.
     */
    public Logger limitedTo(int linesPerMinute) {
        return new Logger(name, linesPerMinute);
    }

    /**
     * The same logger, exempt from the log's rate limit: for a line whose frequency the configuration already bounds,
     * such as the reporter's counters every {@code reporter_stats_log_interval} (at least a second), which the log's
     * default of 20 lines a minute would otherwise cut off.
     */
    public Logger withoutRateLimit() {
        return new Logger(name, -1);
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
            AgentLog.write(level, name, linesPerMinute, message, args);
        }
    }
}
