package dev.apmagent.report;

import dev.apmagent.config.UrlUserInfo;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Locale;

/**
 * A minimal HTTP/1.1 client for one streaming {@code POST} at a time: request head, chunked body, reply status and a
 * bounded body. We use a plain {@link Socket} rather than {@code HttpURLConnection} because only a socket lets us
 * <ul>
 * <li>set {@code TCP_NODELAY}: with Nagle on, the last small chunk of a request waits for the server's delayed ACK
 * (tens of ms per request, measured against peers: it throttled their export);</li>
 * <li>abort a write that a slow or stuck server does not read, by closing the socket from the reporter thread
 * (sockets have no write timeout and {@code HttpURLConnection} cannot be interrupted reliably);</li>
 * <li>read the reply a server sends before it has read the whole body (401, 400, 503), and tolerate garbage replies
 * without the JDK's HTTP client logic (retries of POSTs, keep-alive caches, proxy authentication) in the way.</li>
 * </ul>
 * One connection per request ({@code Connection: close}); at one request per 10 s that costs nothing measurable and
 * avoids stale keep-alive connections. System HTTP proxy properties are not honoured (documented limitation).
 * Only the sender thread uses an instance, except {@link #abort()}, which may be called from any thread.
 */
final class IntakeConnection {

    /** Largest reply body read; the rest is ignored. */
    static final int MAX_REPLY_BODY = 64 * 1024;
    private static final int MAX_HEAD_LINE = 8 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final int timeoutMillis;
    private final SSLSocketFactory sslFactory;
    private final boolean verifyHostname;
    private volatile Socket socket;
    private OutputStream out;
    private InputStream in;
    private long bytesWritten;
    /** Holds a reply's body while it is read; the sender's, shared by its connections (one at a time). */
    private final byte[] replyBody;

    /**
     * {@code sslFactory} may be null when the endpoint is plain HTTP; {@code replyBody} must have room for
     * {@link #MAX_REPLY_BODY} bytes.
     */
    IntakeConnection(int timeoutMillis, SSLSocketFactory sslFactory, boolean verifyHostname, byte[] replyBody) {
        this.timeoutMillis = timeoutMillis;
        this.replyBody = replyBody;
        this.verifyHostname = verifyHostname;
        this.sslFactory = sslFactory;
    }

    /** The JDK's default (verifying) factory, or one that accepts any certificate when verification is off. */
    static SSLSocketFactory socketFactory(boolean verifyServerCert) {
        return verifyServerCert ? (SSLSocketFactory) SSLSocketFactory.getDefault() : trustAllFactory();
    }

    /** A parsed server URL. */
    static final class Endpoint {
        final String host;
        final int port;
        final boolean tls;
        final String path;
        /** The URL as log lines show it: user information redacted. */
        final String text;

        Endpoint(String host, int port, boolean tls, String path, String text) {
            this.host = host;
            this.port = port;
            this.tls = tls;
            this.path = path;
            this.text = text;
        }

        boolean isLoopback() {
            String h = host.toLowerCase(Locale.ROOT);
            return h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]");
        }

        @Override
        public String toString() {
            return text;
        }

        /**
         * Parses {@code http(s)://[user@]host[:port][/prefix]} and appends the intake path. The endpoint's text (what
         * log lines show) has the user information redacted.
         */
        static Endpoint parse(String url, String intakePath) {
            String shown = UrlUserInfo.redact(url.trim());
            URI uri;
            try {
                uri = new URI(url.trim());
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException("server URL is not a URL (" + e.getReason() + "): " + shown);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new IllegalArgumentException("server URL must start with http:// or https://: " + shown);
            }
            String host = uri.getHost();
            if (host == null || host.isEmpty()) {
                throw new IllegalArgumentException("server URL has no host or a port out of range: " + shown);
            }
            if (uri.getPort() == 0 || uri.getPort() > 65_535) {
                throw new IllegalArgumentException("server URL's port is out of range (1 to 65535): " + shown);
            }
            boolean tls = scheme.equals("https");
            int port = uri.getPort() > 0 ? uri.getPort() : (tls ? 443 : 80);
            String prefix = uri.getRawPath() == null ? "" : uri.getRawPath();
            while (prefix.endsWith("/")) {
                prefix = prefix.substring(0, prefix.length() - 1);
            }
            return new Endpoint(host, port, tls, prefix + intakePath, shown);
        }
    }

    /** A reply: status (-1 when none could be read) and up to {@link #MAX_REPLY_BODY} bytes of body. */
    static final class Reply {
        final int status;
        final String contentType;
        final String body;
        final boolean truncated;

        Reply(int status, String contentType, String body, boolean truncated) {
            this.status = status;
            this.contentType = contentType;
            this.body = body;
            this.truncated = truncated;
        }
    }

    /** Connects and writes the request head. */
    void open(Endpoint endpoint, String[] headerLines) throws IOException {
        // proxies are not honoured (above); NO_PROXY also skips the JDK's proxy selector, which was a quarter of the
        // sender's samples
        Socket s = new Socket(Proxy.NO_PROXY);
        socket = s;
        bytesWritten = 0;
        s.setTcpNoDelay(true);
        s.setSoTimeout(timeoutMillis);
        s.connect(new InetSocketAddress(endpoint.host, endpoint.port), timeoutMillis);
        if (endpoint.tls) {
            SSLSocket ssl = (SSLSocket) sslFactory.createSocket(s, endpoint.host, endpoint.port, true);
            SSLParameters params = ssl.getSSLParameters();
            if (verifyHostname) {
                params.setEndpointIdentificationAlgorithm("HTTPS");
            }
            if (!endpoint.host.isEmpty() && Character.isLetter(endpoint.host.charAt(endpoint.host.length() - 1))) {
                params.setServerNames(Collections.singletonList(new SNIHostName(endpoint.host)));
            }
            ssl.setSSLParameters(params);
            ssl.setSoTimeout(timeoutMillis);
            socket = ssl;
            ssl.startHandshake();
            s = ssl;
        }
        out = s.getOutputStream();
        in = new java.io.BufferedInputStream(s.getInputStream(), 4096);
        StringBuilder head = new StringBuilder(512);
        head.append("POST ").append(endpoint.path).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(endpoint.host).append(':').append(endpoint.port).append("\r\n");
        for (String line : headerLines) {
            head.append(line).append("\r\n");
        }
        head.append("Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
        byte[] bytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        out.write(bytes);
        bytesWritten += bytes.length;
    }

    /**
     * Writes one chunk; {@code buf} must have 10 free bytes before {@code off} and 2 after {@code off + len}, so the
     * chunk goes out in one write (one TCP segment with TCP_NODELAY rather than three).
     */
    void writeChunk(byte[] buf, int off, int len) throws IOException {
        if (len == 0) {
            return;
        }
        String hex = Integer.toHexString(len);
        int headLen = hex.length() + 2;
        int start = off - headLen;
        for (int i = 0; i < hex.length(); i++) {
            buf[start + i] = (byte) hex.charAt(i);
        }
        buf[off - 2] = '\r';
        buf[off - 1] = '\n';
        buf[off + len] = '\r';
        buf[off + len + 1] = '\n';
        out.write(buf, start, headLen + len + 2);
        bytesWritten += headLen + len + 2;
    }

    /** Ends the body and reads the reply (blocking up to the read timeout for each read). */
    Reply finish() throws IOException {
        out.write(LAST_CHUNK);
        out.flush();
        bytesWritten += LAST_CHUNK.length;
        return readReply();
    }

    /** After a failed write: the server may already have replied (for example 401 before reading the body). */
    Reply tryReadEarlyReply() {
        try {
            Socket s = socket;
            if (s == null || s.isClosed()) {
                return null;
            }
            s.setSoTimeout(Math.min(timeoutMillis, 500));
            Reply r = readReply();
            return r.status > 0 ? r : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    long bytesWritten() {
        return bytesWritten;
    }

    Reply readReply() throws IOException {
        String statusLine = readLine();
        int interim = 0;
        while (statusLine != null && statusLine.startsWith("HTTP/") && parseStatus(statusLine) / 100 == 1 && interim++ < 10) {
            // an interim 1xx reply (100 Continue, 103 Early Hints): skip its headers and read the final one
            String line;
            while ((line = readLine()) != null && !line.isEmpty()) {
                // ignored
            }
            statusLine = readLine();
        }
        if (statusLine == null || !statusLine.startsWith("HTTP/")) {
            return new Reply(-1, null, statusLine == null ? "" : statusLine, false);
        }
        int status = parseStatus(statusLine);
        long contentLength = -1;
        boolean chunked = false;
        String contentType = null;
        String line;
        while ((line = readLine()) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (name.equals("content-length")) {
                try {
                    contentLength = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    contentLength = -1;
                }
            } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                chunked = true;
            } else if (name.equals("content-type")) {
                contentType = value;
            }
        }
        byte[] body = replyBody;
        int n = 0;
        boolean truncated = false;
        try {
            if (chunked) {
                while (true) {
                    String sizeLine = readLine();
                    if (sizeLine == null) {
                        break;
                    }
                    int semi = sizeLine.indexOf(';');
                    long size = Long.parseLong((semi >= 0 ? sizeLine.substring(0, semi) : sizeLine).trim(), 16);
                    if (size == 0) {
                        break;
                    }
                    for (long i = 0; i < size; i++) {
                        int b = in.read();
                        if (b < 0) {
                            break;
                        }
                        if (n < body.length) {
                            body[n++] = (byte) b;
                        } else {
                            truncated = true;
                            break;
                        }
                    }
                    if (truncated) {
                        break;
                    }
                    readLine();
                }
            } else {
                long limit = contentLength >= 0 ? contentLength : Long.MAX_VALUE;
                while (n < limit) {
                    if (n == body.length) {
                        truncated = true;
                        break;
                    }
                    int r = in.read(body, n, (int) Math.min(body.length - n, limit - n));
                    if (r < 0) {
                        break;
                    }
                    n += r;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // a reply cut short or malformed after the status line: keep what we have
            truncated = true;
        }
        return new Reply(status, contentType, new String(body, 0, n, StandardCharsets.UTF_8), truncated);
    }

    private static int parseStatus(String statusLine) {
        int sp = statusLine.indexOf(' ');
        if (sp < 0 || statusLine.length() < sp + 4) {
            return -1;
        }
        try {
            return Integer.parseInt(statusLine.substring(sp + 1, sp + 4));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                int len = sb.length();
                if (len > 0 && sb.charAt(len - 1) == '\r') {
                    sb.setLength(len - 1);
                }
                return sb.toString();
            }
            if (sb.length() >= MAX_HEAD_LINE) {
                throw new IOException("reply line too long");
            }
            sb.append((char) b);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    /** Closes the connection; safe from any thread, makes a blocked write or read on the sender thread fail. */
    void abort() {
        Socket s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    void close() {
        abort();
        socket = null;
        out = null;
        in = null;
    }

    private static SSLSocketFactory trustAllFactory() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                    // accepts any certificate: verify_server_cert=false
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                    // accepts any certificate: verify_server_cert=false
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("TLS is not available", e);
        }
    }
}
