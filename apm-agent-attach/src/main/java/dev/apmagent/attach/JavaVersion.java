package dev.apmagent.attach;

/** The Java feature version of a target JVM, from its {@code java.specification.version}, and whether the agent supports it. */
final class JavaVersion {

    static final int MIN_SUPPORTED = 8;
    static final int MAX_SUPPORTED = 25;

    private JavaVersion() {
    }

    /**
     * The feature version: {@code "1.8"} is 8, {@code "17"} is 17, {@code "1.7"} is 7. Returns -1 when the value is
     * absent or not a version.
     */
    static int feature(String specificationVersion) {
        if (specificationVersion == null) {
            return -1;
        }
        String value = specificationVersion.trim();
        if (value.startsWith("1.")) {
            value = value.substring(2);
        }
        int dot = value.indexOf('.');
        if (dot >= 0) {
            value = value.substring(0, dot);
        }
        if (value.isEmpty() || value.length() > 4) {
            return -1;
        }
        int feature = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            feature = feature * 10 + (c - '0');
        }
        return feature;
    }

    static boolean isSupported(int feature) {
        return feature >= MIN_SUPPORTED && feature <= MAX_SUPPORTED;
    }
}
