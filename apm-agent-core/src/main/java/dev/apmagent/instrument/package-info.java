/**
 * The agent's one class file hook ({@link dev.apmagent.instrument.AgentClassFileTransformer}, ByteBuddy advice) and
 * its installation: plugin discovery, selection by configuration, ignore rules, cheap-first matching, and the
 * installation of the bootstrap bridge ({@link dev.apmagent.instrument.BootstrapBridge}) for instrumentations of JDK
 * classes. No tracer logic lives here; an application thread runs this code only while it loads a class.
 */
package dev.apmagent.instrument;
