package dev.apmagent.it.apps;

/**
 * Prints whether application code may use the JDK's internal {@code jdk.internal.misc.Unsafe}: libraries such as Netty
 * probe for it and change what they do when they may, so an agent that opened it to the application would change the
 * application.
 */
public final class InternalsApp {

    private InternalsApp() {
    }

    public static void main(String[] args) throws Exception {
        String answer;
        try {
            Class.forName("jdk.internal.misc.Unsafe").getMethod("getUnsafe").invoke(null);
            answer = "accessible";
        } catch (IllegalAccessException expected) {
            answer = "inaccessible";
        }
        System.out.println("jdk.internal.misc.Unsafe " + answer);
    }
}
