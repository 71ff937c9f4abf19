package dev.apmagent.metrics;

import java.nio.charset.StandardCharsets;

/** A metric name with its UTF-8 bytes encoded once (names are constants; they must not contain '*' or '"'). */
public final class MetricName {

    private final String name;
    private final byte[] utf8;

    private MetricName(String name) {
        if (name.indexOf('*') >= 0 || name.indexOf('"') >= 0 || name.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("metric names must not contain '*', '\"' or '\\': " + name);
        }
        this.name = name;
        this.utf8 = name.getBytes(StandardCharsets.UTF_8);
    }

    public static MetricName of(String name) {
        return new MetricName(name);
    }

    public String name() {
        return name;
    }

    /** The encoded bytes; callers must not modify them. */
    public byte[] utf8() {
        return utf8;
    }

    @Override
    public String toString() {
        return name;
    }
}
