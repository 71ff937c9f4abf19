package dev.apmagent.it.containers;

import testapp.containers.AppDatabase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The main class of the container JVMs: {@code <ServletContainer class> <javax|jakarta> [port]}. Creates the database,
 * starts the container with the test application of that servlet namespace, prints {@code listening on <url>} and
 * serves until its standard input closes.
 */
public final class ContainerApp {

    private ContainerApp() {
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        String namespace = args[1];
        Class<?> app = Class.forName(AppDatabase.class.getPackage().getName() + "." + namespace + "."
                + Character.toUpperCase(namespace.charAt(0)) + namespace.substring(1) + "ContainerServlets");
        Map<String, String> servlets = (Map<String, String>) app.getMethod("routes").invoke(null);
        List<String> filters = (List<String>) app.getMethod("filters").invoke(null);
        ServletContainer container = (ServletContainer) Class.forName(args[0]).getDeclaredConstructor().newInstance();

        AppDatabase.create();
        Path baseDir = Files.createTempDirectory("container-app");
        int port = container.start(servlets, filters, args.length > 2 ? Integer.parseInt(args[2]) : 0, baseDir);
        System.out.println("listening on http://127.0.0.1:" + port);
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until standard input closes
        }
        container.stop();
        System.out.println("stopped");
    }
}
