package dev.apmagent.it.attach;

import java.io.IOException;

/**
 * A JVM to attach to: prints {@code ready pid=<pid>}, then {@code agent: <value>} as soon as the system property
 * {@code dev.apmagent.started} appears (the agent sets it when it starts), and exits when its standard input closes.
 */
public final class AttachTargetApp {

    private AttachTargetApp() {
    }

    public static void main(String[] args) throws IOException {
        Thread watcher = new Thread(() -> {
            while (true) {
                String started = System.getProperty("dev.apmagent.started");
                if (started != null) {
                    System.out.println("agent: " + started);
                    System.out.flush();
                    return;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "agent-watcher");
        watcher.setDaemon(true);
        watcher.start();
        System.out.println("ready pid=" + ProcessHandle.current().pid());
        System.out.flush();
        while (System.in.read() != -1) {
            // keep running until told to stop
        }
        System.out.println("stopping");
    }
}
