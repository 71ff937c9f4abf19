package dev.apmagent.it.containers;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One embedded container, implemented per container under src/test/containers and compiled against that
 * container's jars only (see the module's pom).
 */
public interface ServletContainer {

    /**
     * Serves the servlets (URL pattern to class name) behind the filters (class names, mapped in order to /* for
     * REQUEST dispatches) on 127.0.0.1 and the given port (0: a free one), all async-supported; returns the port.
     */
    int start(Map<String, String> servlets, List<String> filters, int port, Path baseDir) throws Exception;

    void stop() throws Exception;
}
