package dev.apmagent.instrument;

import dev.apmagent.bridge.Bridge;
import dev.apmagent.bridge.BridgeHandler;
import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.plugin.Instrumentation;

import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.ModuleVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Makes {@link Bridge} visible to JDK classes: its package's classes are defined in the bootstrap loader before
 * anything of the agent's loaded them (the system loader delegates to the bootstrap loader first, so from then on the
 * agent, its plugins and the JDK's advised classes all share the bootstrap loader's one {@code Bridge}). Nothing else
 * of the agent becomes visible to the bootstrap loader or to the application.
 *
 * <p>How: on Java 9+ they are defined directly (see {@link #defineWithInjector}); on Java 8, or if that fails, they
 * are written to a jar of their own in the temporary directory and appended to the bootstrap search path, which makes
 * the JVM stop class data sharing for the platform and application loaders' classes and print a warning saying so.
 *
 * <p>On Java 9+ the bridge is in the bootstrap loader's unnamed module, which a named module such as {@code java.base}
 * does not read by default; but the JVM gives every module whose classes an agent transforms read edges to the unnamed
 * modules of the bootstrap and application loaders (HotSpot's "default read edges", set up by
 * {@code jdk.internal.module.Modules.transformedByAgent}), so advised JDK classes link to the bridge without
 * {@code Instrumentation.redefineModule}. The forked-JVM tests run on JDK 17 and 25.
 *
 * <p>If any of this fails, the instrumentations that need the bridge are not installed (logged), and every other
 * instrumentation works as before.
 */
final class BootstrapBridge {

    private static final Logger logger = AgentLog.get(BootstrapBridge.class);
    private static final String PACKAGE_PATH = "dev/apmagent/bridge/";
    private static final String INJECTOR_MODULE = "dev.apmagent.injector";
    private static final String INJECTOR_ENTRY = "dev/apmagent/instrument/injector/BootstrapInjector.class";

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
            defineOnce(jvm, agentLoader);
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

    private static synchronized void defineOnce(java.lang.instrument.Instrumentation jvm, ClassLoader agentLoader) throws Exception {
        if (isBootstrapDefined()) {
            return; // defined by an earlier installation in this JVM
        }
        String[] entries = bridgeEntries(agentLoader);
        byte[][] classFiles = new byte[entries.length][];
        String[] classNames = new String[entries.length];
        for (int i = 0; i < entries.length; i++) {
            classFiles[i] = read(agentLoader, entries[i]);
            classNames[i] = entries[i].substring(0, entries[i].length() - ".class".length()).replace('/', '.');
        }
        boolean defined = false;
        if (hasModules()) {
            try {
                defineWithInjector(jvm, agentLoader, classNames, classFiles);
                defined = true;
            } catch (Throwable t) {
                logger.info("cannot define the bridge in the bootstrap loader directly, appending it to its search path instead: {}", t);
            }
        }
        if (!defined) {
            File jar = File.createTempFile("apm-agent-bridge-", ".jar");
            jar.deleteOnExit(); // the bootstrap loader keeps it open; on POSIX systems the name goes, the file stays readable
            writeJar(jar, entries, classFiles);
            jvm.appendToBootstrapClassLoaderSearch(new JarFile(jar));
        }
        if (!isBootstrapDefined() || Bridge.class.getClassLoader() != null) {
            throw new IllegalStateException("the bridge was loaded by " + Bridge.class.getClassLoader() + " before it was defined");
        }
    }

    private static boolean isBootstrapDefined() {
        try {
            return Class.forName(PACKAGE_PATH.replace('/', '.') + "Bridge", false, null).getClassLoader() == null;
        } catch (ClassNotFoundException notYet) {
            return false;
        }
    }

    private static boolean hasModules() {
        try {
            Class.forName("java.lang.ModuleLayer");
            return true;
        } catch (ClassNotFoundException java8) {
            return false;
        }
    }

    /**
     * Java 9+: defines the classes through {@code jdk.internal.misc.Unsafe.defineClass} with the bootstrap loader, called
     * by {@link dev.apmagent.instrument.injector.BootstrapInjector} from a module layer of its own (a jar holding that
     * one class and a generated {@code module-info}) to which alone {@code java.base} exports {@code jdk.internal.misc}.
     * Unlike appending to the bootstrap search path, this leaves class data sharing on and prints nothing; unlike
     * exporting the package to the agent's own module (the application's unnamed module), it gives the application no
     * access it did not have. Everything through reflection: the agent compiles for Java 8.
     */
    private static void defineWithInjector(java.lang.instrument.Instrumentation jvm, ClassLoader agentLoader, String[] classNames,
                                           byte[][] classFiles) throws Exception {
        File jar = File.createTempFile("apm-agent-injector-", ".jar");
        jar.deleteOnExit();
        writeJar(jar, new String[] {"module-info.class", INJECTOR_ENTRY},
                new byte[][] {injectorModuleInfo(), read(agentLoader, INJECTOR_ENTRY)});
        Class<?> finderType = Class.forName("java.lang.module.ModuleFinder");
        Class<?> configurationType = Class.forName("java.lang.module.Configuration");
        Class<?> layerType = Class.forName("java.lang.ModuleLayer");
        Class<?> moduleType = Class.forName("java.lang.Module");
        Method finderOf = finderType.getMethod("of", Path[].class);
        Object boot = layerType.getMethod("boot").invoke(null);
        Object configuration = configurationType.getMethod("resolve", finderType, finderType, Collection.class).invoke(
                layerType.getMethod("configuration").invoke(boot), finderOf.invoke(null, (Object) new Path[] {jar.toPath()}),
                finderOf.invoke(null, (Object) new Path[0]), Collections.singleton(INJECTOR_MODULE));
        Object layer = layerType.getMethod("defineModulesWithOneLoader", configurationType, ClassLoader.class)
                .invoke(boot, configuration, agentLoader);
        ClassLoader injectorLoader = (ClassLoader) layerType.getMethod("findLoader", String.class).invoke(layer, INJECTOR_MODULE);
        Class<?> injector = injectorLoader.loadClass(INJECTOR_ENTRY.substring(0, INJECTOR_ENTRY.length() - ".class".length())
                .replace('/', '.'));
        Method getModule = Class.class.getMethod("getModule");
        java.lang.instrument.Instrumentation.class
                .getMethod("redefineModule", moduleType, Set.class, Map.class, Map.class, Set.class, Map.class)
                .invoke(jvm, getModule.invoke(Object.class), Collections.emptySet(),
                        Collections.singletonMap("jdk.internal.misc", Collections.singleton(getModule.invoke(injector))),
                        Collections.emptyMap(), Collections.emptySet(), Collections.emptyMap());
        injector.getMethod("define", String[].class, byte[][].class).invoke(null, classNames, classFiles);
    }

    /**
     * {@code module dev.apmagent.injector { exports dev.apmagent.instrument.injector; }}, so that the agent may call the
     * injector; nothing but the agent holds the layer it is in, so nothing else can reach it.
     */
    private static byte[] injectorModuleInfo() {
        String pkg = INJECTOR_ENTRY.substring(0, INJECTOR_ENTRY.lastIndexOf('/'));
        ClassWriter module = new ClassWriter(0);
        module.visit(Opcodes.V9, Opcodes.ACC_MODULE, "module-info", null, null, null);
        ModuleVisitor declaration = module.visitModule(INJECTOR_MODULE, 0, null);
        declaration.visitRequire("java.base", Opcodes.ACC_MANDATED, null);
        declaration.visitPackage(pkg);
        declaration.visitExport(pkg, 0);
        declaration.visitEnd();
        module.visitEnd();
        return module.toByteArray();
    }

    /** The class files of the bridge package, as the agent's loader sees them (a jar, or a directory in tests). */
    private static String[] bridgeEntries(ClassLoader agentLoader) throws IOException {
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
        return names.toArray(new String[0]);
    }

    private static byte[] read(ClassLoader loader, String entry) throws IOException {
        InputStream in = loader.getResourceAsStream(entry);
        if (in == null) {
            throw new IOException("no " + entry + " on the agent's class path");
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                bytes.write(buffer, 0, n);
            }
            return bytes.toByteArray();
        } finally {
            in.close();
        }
    }

    private static void writeJar(File jar, String[] entries, byte[][] contents) throws IOException {
        OutputStream out = new FileOutputStream(jar);
        try {
            JarOutputStream jarOut = new JarOutputStream(out);
            for (int i = 0; i < entries.length; i++) {
                jarOut.putNextEntry(new JarEntry(entries[i]));
                jarOut.write(contents[i]);
                jarOut.closeEntry();
            }
            jarOut.finish();
        } finally {
            out.close();
        }
    }
}
