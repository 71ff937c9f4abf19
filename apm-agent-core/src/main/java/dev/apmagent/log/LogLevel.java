package dev.apmagent.log;

/** Levels of the agent's log, most severe first. */
public enum LogLevel {
    OFF, ERROR, WARN, INFO, DEBUG, TRACE
}
