package dev.apmagent.plugin.okhttp;

/** Which OkHttp this test JVM runs, so every execution proves it tested the version it claims. */
final class OkHttpVersions {

    private OkHttpVersions() {
    }

    /** The version of OkHttp on the class path: {@code okhttp3.OkHttp.VERSION} (4.x, 5.x) or the 3.x user agent. */
    static String running() throws Exception {
        try {
            return (String) Class.forName("okhttp3.OkHttp").getField("VERSION").get(null);
        } catch (ClassNotFoundException e) {
            String userAgent = (String) Class.forName("okhttp3.internal.Version").getMethod("userAgent").invoke(null);
            return userAgent.substring(userAgent.indexOf('/') + 1);
        }
    }

    /** The version this execution was configured with (the Surefire execution's system property). */
    static String expected() {
        return System.getProperty("apm.okhttp.expected.version", "");
    }

    static boolean atLeast4() {
        return !expected().startsWith("3.");
    }
}
