package dev.apmagent.trace;

/** Copying application text into reusable builders, truncated before storing. */
final class Texts {

    private Texts() {
    }

    /** Replaces the content of {@code sb} with at most {@code max} characters of {@code value} (null clears it). */
    static void copy(CharSequence value, StringBuilder sb, int max) {
        sb.setLength(0);
        if (value != null) {
            sb.append(value, 0, Math.min(value.length(), max));
        }
    }

    /** Empties a builder and gives back memory a huge value made it keep (bounded retention per pooled object). */
    static void clear(StringBuilder sb, int retainCapacity) {
        sb.setLength(0);
        if (sb.capacity() > retainCapacity) {
            sb.trimToSize();
        }
    }
}
