package dev.apmagent.instrument;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.plugin.Instrumentation;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Makes {@link Bridge} visible to JDK classes: its package's classes are copied from the agent's class path into a
 * jar of their own in the temporary directory and appended to the bootstrap search path, before anything of the
 * agent's loaded them (the system loader delegates to the bootstrap loader first, so from then on the agent, its
 * plugins and the JDK's advised classes all share the bootstrap loader's one {@code Bridge}). Nothing else of the
 * agent becomes visible to the bootstrap loader or to the application.
 *
 * <p>On Java 9+ the appended classes are in the bootstrap loader's unnamed module, which a named module such as
 * {@code java.base} does not read by default; but the JVM gives every module whose classes an agent transforms read
 * edges to the unnamed modules of the bootstrap and application loaders (HotSpot's "default read edges", set up by
 * {@code jdk.internal.module.Modules.transformedByAgent}), so advised JDK classes link to the bridge without
 * {@code Instrumentation.redefineModule}. The forked-JVM tests run on JDK 17 and 25.
 *
 * <p>If any of this fails, the instrumentations that need the bridge are not installed (logged), and every other
 * instrumentation works as before.
 */
final class BootstrapBridge {

    private static final Logger logger = AgentLog.get(BootstrapBridge.class);
    private static final String PACKAGE_PATH = "dev/apmagent/bridge/";

    private final List<BridgeHandler> handlers;

    private BootstrapBridge(List<BridgeHandler> handlers) {
        this.handlers = handlers;
    }

    /** Whether {@code instrumentation} advises JDK classes through the bridge. */
    static boolean needsBridge(Instrumentation instrumentation) {
        return !instrumentation.bridgeHandlers().isEmpty();
    }

    /**
     * Appends the bridge to the bootstrap search path if some instrumentation needs it (once per JVM) and registers
     * their handlers; removes from {@code instrumentations} those that need it when that failed.
     *
     * @return the bridge, or null when no instrumentation needs it or it could not be installed
     */
    static BootstrapBridge install(java.lang.instrument.Instrumentation jvm, List<Instrumentation> instrumentations,
                                   ClassLoader agentLoader) {
        List<String> handlerNames = new ArrayList<String>();
        for (Instrumentation instrumentation : instrumentations) {
            handlerNames.addAll(instrumentation.bridgeHandlers());
        }
        if (handlerNames.isEmpty()) {
            return null;
        }
        List<BridgeHandler> handlers = new ArrayList<BridgeHandler>();
        try {
            appendOnce(jvm, agentLoader);
            for (String name : handlerNames) {
                BridgeHandler handler = (BridgeHandler) Class.forName(name, true, agentLoader).getConstructor().newInstance();
                Bridge.register(handler);
                handlers.add(handler);
            }
            return new BootstrapBridge(handlers);
        } catch (Throwable t) {
            for (BridgeHandler handler : handlers) {
                Bridge.unregister(handler);
            }
            List<String> dropped = new ArrayList<String>();
            for (int i = instrumentations.size() - 1; i >= 0; i--) {
                if (needsBridge(instrumentations.get(i))) {
                    dropped.add(instrumentations.get(i).name());
                    instrumentations.remove(i);
                }
            }
            logger.warn("cannot make the agent visible to JDK classes, so these instrumentations are not installed: {} ({})", dropped, t);
            return null;
        }
    }

    /** Removes the handlers again (uninstall): advice already inlined into JDK classes then does nothing. */
    void unregister() {
        for (BridgeHandler handler : handlers) {
            Bridge.unregister(handler);
        }
    }

    private static synchronized void appendOnce(java.lang.instrument.Instrumentation jvm, ClassLoader agentLoader) throws IOException,
            ClassNotFoundException {
        if (isBootstrapDefined()) {
            return; // appended by an earlier installation in this JVM
        }
        File jar = File.createTempFile("apm-agent-bridge-", ".jar");
        jar.deleteOnExit(); // the bootstrap loader keeps it open; on POSIX systems the name goes, the file stays readable
        writeBridgeJar(agentLoader, jar);
        jvm.appendToBootstrapClassLoaderSearch(new JarFile(jar));
        if (!isBootstrapDefined() || Bridge.class.getClassLoader() != null) {
            throw new IllegalStateException("the bridge was loaded by " + Bridge.class.getClassLoader() + " before it was appended");
        }
    }

    private static boolean isBootstrapDefined() throws ClassNotFoundException {
        try {
            return Class.forName(PACKAGE_PATH.replace('/', '.') + "Bridge", false, null).getClassLoader() == null;
        } catch (ClassNotFoundException notYet) {
            return false;
        }
    }

    /** Copies every class of the bridge package, as the agent's loader sees them (a jar, or a directory in tests). */
    private static void writeBridgeJar(ClassLoader agentLoader, File jar) throws IOException {
        URL marker = agentLoader.getResource(PACKAGE_PATH + "Bridge.class");
        if (marker == null) {
            throw new IOException("no " + PACKAGE_PATH + "Bridge.class on the agent's class path");
        }
        List<String> names = new ArrayList<String>();
        if ("jar".equals(marker.getProtocol())) {
            JarFile agentJar = ((JarURLConnection) marker.openConnection()).getJarFile();
            for (Enumeration<JarEntry> entries = agentJar.entries(); entries.hasMoreElements(); ) {
                String name = entries.nextElement().getName();
                if (name.startsWith(PACKAGE_PATH) && name.endsWith(".class") && name.indexOf('/', PACKAGE_PATH.length()) < 0) {
                    names.add(name);
                }
            }
        } else {
            File[] files = new File(marker.getPath()).getParentFile().listFiles();
            for (File f : files == null ? new File[0] : files) {
                if (f.getName().endsWith(".class")) {
                    names.add(PACKAGE_PATH + f.getName());
                }
            }
        }
        OutputStream out = new FileOutputStream(jar);
        try {
            JarOutputStream jarOut = new JarOutputStream(out);
            byte[] buffer = new byte[8192];
            for (String name : names) {
                jarOut.putNextEntry(new JarEntry(name));
                InputStream in = agentLoader.getResourceAsStream(name);
                try {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        jarOut.write(buffer, 0, n);
                    }
                } finally {
                    in.close();
                }
                jarOut.closeEntry();
            }
            jarOut.finish();
        } finally {
            out.close();
        }
    }
}
