package dev.apmagent.log;

import java.io.PrintStream;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.TimeZone;

/** Entry point to the agent's log: {@code AgentLog.get(MyClass.class)}, and the sink all loggers write to. */
public final class AgentLog {

    private static volatile LogLevel level = LogLevel.INFO;
    private static volatile PrintStream out = System.out;

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

    public static void setOutput(PrintStream stream) {
        out = stream;
    }

    static boolean isEnabled(LogLevel candidate) {
        LogLevel current = level;
        return current != LogLevel.OFF && candidate != LogLevel.OFF && candidate.ordinal() <= current.ordinal();
    }

    static void write(LogLevel lvl, String loggerName, String message, Object[] args) {
        Throwable thrown = null;
        StringBuilder sb = new StringBuilder(64 + message.length());
        SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
        format.setTimeZone(TimeZone.getTimeZone("UTC"));
        sb.append(format.format(new Date())).append(" [apm-agent] ").append(lvl.name()).append(' ')
                .append(loggerName).append(" - ");
        int argIndex = 0;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            if (c == '{' && i + 1 < message.length() && message.charAt(i + 1) == '}' && args != null && argIndex < args.length) {
                sb.append(args[argIndex++]);
                i++;
            } else {
                sb.append(c);
            }
        }
        if (args != null && args.length > argIndex && args[args.length - 1] instanceof Throwable) {
            thrown = (Throwable) args[args.length - 1];
        }
        PrintStream stream = out;
        synchronized (stream) {
            stream.println(sb);
            if (thrown != null) {
                thrown.printStackTrace(stream);
            }
        }
    }
}
