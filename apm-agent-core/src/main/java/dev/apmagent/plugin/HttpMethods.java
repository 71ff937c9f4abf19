package dev.apmagent.plugin;

/**
 * The one rule for HTTP methods in event names, which every plugin that names an event from a request follows: the
 * method is the client's choice, any token is valid HTTP, and a name built from it would give every made-up method a
 * transaction group of its own (and a 5,000-character method a 1,024-character name). So names use the standard
 * methods by name (GET HEAD POST PUT DELETE OPTIONS TRACE PATCH CONNECT, compared case-sensitively, as HTTP does) and
 * put everything else, {@code get} included, into one bucket, {@value #OTHER}. What the client really sent stays in
 * {@code context.request.method}, cut to {@link dev.apmagent.trace.Request#MAX_METHOD_LENGTH} characters.
 * Allocation-free.
 */
public final class HttpMethods {

    /** The name of the bucket of every non-standard method. */
    public static final String OTHER = "OTHER";

    private static final String[] STANDARD = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "CONNECT"};
    /** The servlet-style method part of a name ({@code doGet}, ..., {@code doOther}), in the order of {@link #STANDARD}. */
    private static final String[] CAPITALIZED = {"Get", "Head", "Post", "Put", "Delete", "Options", "Trace", "Patch", "Connect"};
    private static final String OTHER_CAPITALIZED = "Other";

    private HttpMethods() {
    }

    /** The method to put in a name: the standard method itself (a constant), or {@value #OTHER}; null stays null. */
    public static String forName(CharSequence method) {
        if (method == null) {
            return null;
        }
        int i = standardIndex(method);
        return i < 0 ? OTHER : STANDARD[i];
    }

    /** {@code Get}, {@code Post}, ... for the standard methods, {@code Other} for any other (null included). */
    public static String capitalized(CharSequence method) {
        int i = method == null ? -1 : standardIndex(method);
        return i < 0 ? OTHER_CAPITALIZED : CAPITALIZED[i];
    }

    private static int standardIndex(CharSequence method) {
        int len = method.length();
        if (len < 3 || len > 7) {
            return -1;
        }
        for (int i = 0; i < STANDARD.length; i++) {
            if (STANDARD[i].contentEquals(method)) {
                return i;
            }
        }
        return -1;
    }
}
