/**
 * The real agent jar in forked JVMs against real embedded servlet containers (Tomcat 9 and 10.1, Jetty 9.4 and 12,
 * Undertow 2.3), each on its own class path: the scenarios live once in
 * {@link dev.apmagent.it.containers.AbstractContainerIT}, a thin subclass binds each container. The test application
 * lives in {@code testapp.containers} (its javax servlets and their generated jakarta twin), outside
 * {@code dev.apmagent}, whose classes the agent never instruments; the per-container launchers live in
 * src/test/containers and are compiled against their container's jars by the pom.
 */
package dev.apmagent.it.containers;
