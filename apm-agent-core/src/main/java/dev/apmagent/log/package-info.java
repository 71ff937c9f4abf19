/**
 * The agent's own log: {@link dev.apmagent.log.AgentLog#get(Class)} gives a {@link dev.apmagent.log.Logger};
 * lines go to System.out, System.err or a file, prefixed with time, level and logger name, rate-limited per message
 * template, with registered secret values masked. Nothing here depends on an application logging framework, and
 * nothing here may be called on an application thread's hot path.
 */
package dev.apmagent.log;
