package dev.apmagent.view;

import java.time.Instant;
import java.util.Locale;

/** Text helpers shared by the waterfall and the summary. */
final class Format {

    private Format() {
    }

    /** "9.874 ms". */
    static String millis(double millis) {
        return decimal(millis) + " ms";
    }

    /** Three decimals, whatever the default locale. */
    static String decimal(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** "1.5", or "12" for integral values: counters are printed as they were reported. */
    static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return decimal(value);
    }

    /** "1 span", "16 spans". */
    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /** ISO-8601 UTC with the microseconds the agent reports. */
    static String instant(long epochMicros) {
        return Instant.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000L),
                Math.floorMod(epochMicros, 1_000_000L) * 1000L).toString();
    }

    static String orUnknown(String s) {
        return s == null ? "?" : s;
    }

    /** Pads with spaces, or cuts to {@code width} ending in "..". */
    static String fit(String s, int width) {
        if (s.length() > width) {
            return s.substring(0, width - 2) + "..";
        }
        StringBuilder sb = new StringBuilder(width).append(s);
        while (sb.length() < width) {
            sb.append(' ');
        }
        return sb.toString();
    }

    static String padLeft(String s, int width) {
        StringBuilder sb = new StringBuilder(width);
        for (int i = s.length(); i < width; i++) {
            sb.append(' ');
        }
        return sb.append(s).toString();
    }
}
