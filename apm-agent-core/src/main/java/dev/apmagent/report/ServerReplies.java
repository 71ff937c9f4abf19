package dev.apmagent.report;

/**
 * Reading what the APM Server says in an error reply, tolerant of anything it (or a proxy in front) sends, and how each
 * kind of reply is counted (docs/architecture.md, "Replies").
 */
final class ServerReplies {

    private ServerReplies() {
    }

    /**
     * Why the events of a request that got an error reply with this status (not 2xx) are dropped, beyond the
     * {@code accepted} count the body may give: a 4xx is the server's verdict on the request (invalid, too large, not
     * authorized, rate-limited) and counts as {@link DropReason#SERVER_REJECTED}; anything else (a 5xx, such as 503
     * "queue is full", a redirect the agent does not follow, no status at all) means the server could not take them,
     * {@link DropReason#SEND_FAILED}, like a broken connection.
     */
    static DropReason dropReason(int status) {
        return status >= 400 && status < 500 ? DropReason.SERVER_REJECTED : DropReason.SEND_FAILED;
    }

    /**
     * Whether a reply counts as garbage (a reply the agent could not read): no HTTP status line; a body cut short (over
     * {@link IntakeConnection#MAX_REPLY_BODY} or the connection closed in the middle of it); or a body declared as JSON
     * that is not a JSON object. A well-formed error reply is not garbage, whatever its status and whether or not it
     * has an {@code accepted} count: an APM Server's {@code {"error":"..."}}, a proxy's HTML or plain-text page.
     */
    static boolean isGarbage(int status, String contentType, String body, boolean truncated) {
        if (status <= 0 || truncated) {
            return true;
        }
        boolean json = contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).contains("json");
        return json && body != null && !body.trim().isEmpty() && !isJsonObjectShaped(body);
    }

    private static boolean isJsonObjectShaped(String body) {
        String t = body.trim();
        return t.startsWith("{") && t.endsWith("}");
    }

    /**
     * The {@code accepted} count of an intake error body such as {@code {"accepted":3,"errors":[...]}}, or -1 when
     * the body is not such a JSON object (HTML from a proxy, truncated, empty).
     */
    static long acceptedCount(String body) {
        if (body == null) {
            return -1;
        }
        int start = 0;
        while (start < body.length() && Character.isWhitespace(body.charAt(start))) {
            start++;
        }
        if (start >= body.length() || body.charAt(start) != '{') {
            return -1;
        }
        int key = body.indexOf("\"accepted\"", start);
        if (key < 0) {
            return -1;
        }
        int i = key + "\"accepted\"".length();
        while (i < body.length() && Character.isWhitespace(body.charAt(i))) {
            i++;
        }
        if (i >= body.length() || body.charAt(i) != ':') {
            return -1;
        }
        i++;
        while (i < body.length() && Character.isWhitespace(body.charAt(i))) {
            i++;
        }
        long n = 0;
        int digits = 0;
        while (i < body.length() && Character.isDigit(body.charAt(i)) && digits < 18) {
            n = n * 10 + (body.charAt(i) - '0');
            i++;
            digits++;
        }
        return digits == 0 ? -1 : n;
    }

    /**
     * The body shortened for a log line, its line breaks and other C0 controls turned into spaces (easier to read than
     * the escapes the log writes for every character that is not printable).
     */
    static String forLog(String body, int max) {
        if (body == null) {
            return "";
        }
        int n = Math.min(body.length(), max);
        StringBuilder sb = new StringBuilder(n + 3);
        for (int i = 0; i < n; i++) {
            char c = body.charAt(i);
            sb.append(c < 0x20 ? ' ' : c);
        }
        if (body.length() > max) {
            sb.append("...");
        }
        return sb.toString();
    }
}
