package dev.apmagent.plugin.jdbc;

import java.net.URI;

/**
 * Where a real database server is, from environment variables with local defaults, and what spans should say about
 * it (read from the URL independently of the agent's own parser).
 */
final class ServerBinding {

    final String url;
    final String user;
    final String password;
    final String host;
    final int port;
    final String database;

    /**
     * @param prefix      environment variable prefix, e.g. {@code APM_TEST_PG} for {@code APM_TEST_PG_URL},
     *                    {@code APM_TEST_PG_USER}, {@code APM_TEST_PG_PASSWORD}
     * @param defaultPort port when the URL has none
     */
    ServerBinding(String prefix, String defaultUrl, String defaultUser, int defaultPort) {
        this.url = env(prefix + "_URL", defaultUrl);
        this.user = env(prefix + "_USER", defaultUser);
        this.password = env(prefix + "_PASSWORD", "");
        URI uri = URI.create(url.substring("jdbc:".length()));
        this.host = uri.getHost();
        this.port = uri.getPort() > 0 ? uri.getPort() : defaultPort;
        String path = uri.getPath();
        this.database = path == null || path.length() <= 1 ? null : path.substring(1);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
