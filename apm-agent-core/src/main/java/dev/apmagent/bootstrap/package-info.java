/**
 * The agent's entry points ({@code premain}, {@code agentmain}) and its start-up sequence: configuration, logging,
 * tracer, reporter, instrumentation, shutdown hook. Nothing here runs on an application thread after start-up, and
 * nothing here may let an exception reach the JVM.
 */
package dev.apmagent.bootstrap;
