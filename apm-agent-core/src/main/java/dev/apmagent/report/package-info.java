/**
 * The reporting pipeline: the bounded hand-off ring from application threads, the "apm-reporter" thread with one
 * hand-written DSL-JSON serializer per event type, the byte ring buffer of serialized events, and the "apm-sender"
 * thread that streams it to the APM Server (or the output file). Application threads only ever run
 * {@link dev.apmagent.report.ApmReporter}'s {@code report} methods; nothing in here may block, lock, log or allocate
 * on them. The agent's version ({@link dev.apmagent.report.AgentVersion}) lives here because the metadata reports it. No
 * instrumentation or tracing logic lives here.
 */
package dev.apmagent.report;
