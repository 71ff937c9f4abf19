/**
 * The agent jar's command line ({@link dev.apmagent.tools.AgentCli}, the jar's {@code Main-Class}: {@code java -jar
 * apm-agent.jar attach|view|version}, each command's main class looked up by name) and the generator of
 * docs/configuration.md ({@link dev.apmagent.tools.ConfigurationDocs}, run on the agent jar by the build and its
 * tests). These run only when the jar is started as a program, never in the application's JVM, so they may allocate,
 * log to the console and exit; nothing the agent loads as {@code -javaagent} may depend on this module, and
 * nothing that runs in the application belongs here.
 */
package dev.apmagent.tools;
