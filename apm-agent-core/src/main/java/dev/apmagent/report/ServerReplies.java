package dev.apmagent.report;

/** Reading what the APM Server says in an error reply, tolerant of anything it (or a proxy in front) sends. */
final class ServerReplies {

    private ServerReplies() {
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
