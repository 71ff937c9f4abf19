/**
 * The overhead harness: runs the reference application ({@code overhead.app}) in its own JVM with no agent, this
 * agent, the Elastic APM Java agent and the OpenTelemetry Java agent, in interleaved rounds, drives it with a
 * closed-loop load generator at fixed concurrency after a warm-up that lasts until throughput settles, and reports
 * throughput, latency percentiles, CPU time per request, RSS, heap after GC and start-up time, each as a ratio to no
 * agent. A loopback sink receives what the agents report (intake v2 and OTLP/HTTP) and counts it, so a run shows that
 * every agent really did its work. Nothing here runs inside the measured JVM; the application package must not
 * depend on this one.
 */
package dev.apmagent.benchmark.overhead;
