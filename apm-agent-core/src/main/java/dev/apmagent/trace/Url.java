package dev.apmagent.trace;

/** The URL of a request, kept in parts; {@link #full()} assembles it on demand into a reusable builder. */
public final class Url {

    private CharSequence protocol;
    private CharSequence hostname;
    private CharSequence pathname;
    private CharSequence search;
    private int port = -1;
    private final StringBuilder full = new StringBuilder();

    /** E.g. "https"; may be null. */
    public CharSequence protocol() {
        return protocol;
    }

    public CharSequence hostname() {
        return hostname;
    }

    public CharSequence pathname() {
        return pathname;
    }

    /** Query string without the '?'; may be null. */
    public CharSequence search() {
        return search;
    }

    /** -1 when none. */
    public int port() {
        return port;
    }

    public void set(CharSequence protocol, CharSequence hostname, int port, CharSequence pathname, CharSequence search) {
        this.protocol = protocol;
        this.hostname = hostname;
        this.port = port;
        this.pathname = pathname;
        this.search = search;
    }

    public boolean hasContent() {
        return protocol != null || hostname != null || pathname != null || search != null || port != -1;
    }

    /**
     * {@code protocol://hostname[:port]pathname[?search]}, built into a builder owned by this object (valid until the
     * next call or reset). The port is left out when it is the protocol's default.
     */
    public CharSequence full() {
        full.setLength(0);
        if (protocol != null) {
            full.append(protocol).append("://");
        }
        if (hostname != null) {
            full.append(hostname);
        }
        if (port > 0 && !isDefaultPort()) {
            full.append(':').append(port);
        }
        if (pathname != null) {
            full.append(pathname);
        }
        if (search != null && search.length() > 0) {
            full.append('?').append(search);
        }
        return full;
    }

    private boolean isDefaultPort() {
        if (protocol == null) {
            return false;
        }
        return (port == 80 && equalsAscii(protocol, "http")) || (port == 443 && equalsAscii(protocol, "https"));
    }

    private static boolean equalsAscii(CharSequence a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        for (int i = 0; i < b.length(); i++) {
            if (Character.toLowerCase(a.charAt(i)) != b.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    public void reset() {
        protocol = null;
        hostname = null;
        pathname = null;
        search = null;
        port = -1;
        Texts.clear(full, 4096);
    }
}
