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
        int from = 0;
        int sep;
        while ((sep = text.indexOf("://", from)) >= 0) {
            int start = sep + 3;
            int end = authorityEnd(text, start);
            int at = text.lastIndexOf('@', end - 1);
            if (at >= start) {
                if (sb == null) {
                    sb = new StringBuilder(text.length());
                }
                sb.append(text, copied, start).append(ConfigOption.REDACTED);
                copied = at;
            }
            from = end;
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
        int from = 0;
        int sep;
        while ((sep = text.indexOf("://", from)) >= 0) {
            int start = sep + 3;
            int end = authorityEnd(text, start);
            int at = text.lastIndexOf('@', end - 1);
            if (at > start) {
                out.add(text.substring(start, at));
            }
            from = end;
        }
        return out;
    }

    /** Where the authority that starts at {@code start} ends: at '/', '?', '#', a blank, a comma or the end. */
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
