/**
 * The overhead harness's reference application: embedded Tomcat 10.1, a HikariCP pool and an in-memory H2 database,
 * packaged on its own as {@code apm-agent-benchmarks/target/reference-app.jar} and run in its own JVM, with or without
 * an agent. Only what an ordinary web application does lives here; nothing may depend on the harness or the agent,
 * so that every agent sees the same plain application.
 */
package dev.apmagent.benchmark.overhead.app;
