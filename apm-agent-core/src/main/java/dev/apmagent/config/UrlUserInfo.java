package dev.apmagent.config;

/**
 * Finds and hides the user information of URLs ({@code http://user:password@host}) in text: what a log line, a warning
 * or the metadata's {@code process.argv} shows of a URL keeps its scheme, host, port and path, and says
 * {@code [REDACTED]} in place of the credentials. Works on any text, so a URL inside an argument or a message is found
 * too; never throws.
 */
public final class UrlUserInfo {

    private UrlUserInfo() {
    }

    /** {@code text} with the user information of every {@code scheme://user@host} in it replaced by {@code [REDACTED]}. */
    public static String redact(String text) {
        if (text == null || text.indexOf('@') < 0 || !text.contains("://")) {
            return text;
        }
        StringBuilder sb = null;
        int copied = 0;
        for (int[] u = next(text, 0); u != null; u = next(text, u[2])) {
            if (sb == null) {
                sb = new StringBuilder(text.length());
            }
            sb.append(text, copied, u[0]).append(ConfigOption.REDACTED);
            copied = u[1];
        }
        return sb == null ? text : sb.append(text, copied, text.length()).toString();
    }

    /**
     * The user information of every URL in {@code text}, in order ({@code user:password} of
     * {@code http://user:password@host}); empty when there is none.
     */
    public static java.util.List<String> find(String text) {
        java.util.List<String> out = new java.util.ArrayList<String>(1);
        if (text == null || text.indexOf('@') < 0) {
            return out;
        }
        for (int[] u = next(text, 0); u != null; u = next(text, u[2])) {
            if (u[1] > u[0]) {
                out.add(text.substring(u[0], u[1]));
            }
        }
        return out;
    }

    /**
     * The next URL at or after {@code from} in {@code text} that has user information: {start of the user information,
     * its '@', end of the authority}; null when there is none.
     */
    private static int[] next(String text, int from) {
        int sep;
        while ((sep = text.indexOf("://", from)) >= 0) {
            int start = sep + 3;
            int end = authorityEnd(text, start);
            int at = text.lastIndexOf('@', end - 1);
            if (at >= start) {
                return new int[] {start, at, end};
            }
            from = end;
        }
        return null;
    }

    /** Where the authority that starts at {@code start} ends: at '/', '?', '#', ';', a blank, a comma or the end. */
    private static int authorityEnd(String text, int start) {
        int i = start;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '/' || c == '?' || c == '#' || c == ',' || c == ';' || Character.isWhitespace(c)) {
                break;
            }
            i++;
        }
        return i;
    }
}
