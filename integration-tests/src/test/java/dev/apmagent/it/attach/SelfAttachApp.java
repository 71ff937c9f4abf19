package dev.apmagent.it.attach;

import java.io.File;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Map;

/**
 * An application that starts the agent itself, first thing in main, through {@code ApmAgentAttacher} (called by
 * reflection: the integration tests do not compile against the agent). Argument: the agent's log file, or "-".
 * Prints what each of two calls returned and the agent's system property, or the error.
 */
public final class SelfAttachApp {

    private SelfAttachApp() {
    }

    public static void main(String[] args) throws Exception {
        Class<?> attacher = Class.forName("dev.apmagent.attach.ApmAgentAttacher");
        Method attach = attacher.getMethod("attach", Map.class);
        Map<String, String> config = args.length > 0 && !args[0].equals("-")
                ? Collections.singletonMap("log_file", new File(args[0]).getAbsolutePath()) : Collections.emptyMap();
        try {
            Object first = attach.invoke(null, config);
            Object second = attach.invoke(null, config);
            System.out.println("first=" + first + " second=" + second + " started=" + System.getProperty("dev.apmagent.started"));
        } catch (java.lang.reflect.InvocationTargetException e) {
            System.out.println("error: " + e.getCause().getMessage());
        }
    }
}
