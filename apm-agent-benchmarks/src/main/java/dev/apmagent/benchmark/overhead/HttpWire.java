package dev.apmagent.benchmark.overhead;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * The few pieces of HTTP/1.1 framing the sink and the load generator need: a request or status line with its headers,
 * and a body delimited by Content-Length or chunked transfer coding. Blocking, on a buffered stream, no allocation
 * beyond the head and the body.
 */
final class HttpWire {

    private HttpWire() {
    }

    /** The start line and headers up to the blank line (without it), or null at a clean end of stream. */
    static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(256);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                int n = sb.length();
                if (n >= 1 && sb.charAt(n - 1) == '\r' && (n == 1 || (n >= 3 && sb.charAt(n - 2) == '\n'))) {
                    return n == 1 ? "" : sb.substring(0, n - 3);
                }
            }
            sb.append((char) b);
        }
        if (sb.length() == 0) {
            return null;
        }
        throw new IOException("stream ended inside a message head");
    }

    /** The value of a header (case-insensitive name), or null. */
    static String header(String head, String name) {
        String lower = head.toLowerCase(Locale.ROOT);
        String key = "\n" + name.toLowerCase(Locale.ROOT) + ":";
        int i = lower.indexOf(key);
        if (i < 0) {
            return null;
        }
        int start = i + key.length();
        int end = head.indexOf('\r', start);
        return head.substring(start, end < 0 ? head.length() : end).trim();
    }

    /** Reads the body the head announces: chunked, Content-Length, or none. */
    static byte[] readBody(InputStream in, String head) throws IOException {
        String transferEncoding = header(head, "Transfer-Encoding");
        if (transferEncoding != null && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return readChunked(in);
        }
        String length = header(head, "Content-Length");
        return readFully(in, length == null ? 0 : Integer.parseInt(length));
    }

    static byte[] readFully(InputStream in, int length) throws IOException {
        byte[] body = new byte[length];
        int read = 0;
        while (read < length) {
            int n = in.read(body, read, length - read);
            if (n < 0) {
                throw new IOException("stream ended after " + read + " of " + length + " body bytes");
            }
            read += n;
        }
        return body;
    }

    static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(1024);
        while (true) {
            String line = readLine(in);
            int semicolon = line.indexOf(';');
            int size = Integer.parseInt((semicolon >= 0 ? line.substring(0, semicolon) : line).trim(), 16);
            if (size == 0) {
                while (!readLine(in).isEmpty()) {
                    // trailer fields are not used
                }
                return body.toByteArray();
            }
            body.write(readFully(in, size));
            readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(16);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            sb.append((char) b);
        }
        throw new IOException("stream ended inside a chunked body");
    }

    /** The status code of a response head ({@code HTTP/1.1 200 OK}). */
    static int status(String head) throws IOException {
        int space = head.indexOf(' ');
        if (!head.startsWith("HTTP/") || space < 0 || head.length() < space + 4) {
            throw new IOException("not an HTTP response: " + head.lines().findFirst().orElse(""));
        }
        return Integer.parseInt(head.substring(space + 1, space + 4));
    }
}
