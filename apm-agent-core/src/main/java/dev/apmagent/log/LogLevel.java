package dev.apmagent.log;

import java.util.Locale;

/** Levels of the agent's log, most severe first. */
public enum LogLevel {
    OFF, ERROR, WARN, INFO, DEBUG, TRACE;

    /**
     * The level with this name, case-insensitively; also accepts the Elastic agent's aliases {@code warning},
     * {@code critical} (as ERROR) and {@code all} (as TRACE). Returns null for anything else.
     */
    public static LogLevel fromName(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT);
        if (n.equals("WARNING")) {
            return WARN;
        }
        if (n.equals("CRITICAL")) {
            return ERROR;
        }
        if (n.equals("ALL")) {
            return TRACE;
        }
        for (LogLevel level : values()) {
            if (level.name().equals(n)) {
                return level;
            }
        }
        return null;
    }
}
