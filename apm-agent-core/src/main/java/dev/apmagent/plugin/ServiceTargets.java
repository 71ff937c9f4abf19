package dev.apmagent.plugin;

import dev.apmagent.trace.Http;

/**
 * Derives an exit span's {@code service.target} and {@code destination.service.resource} as the shared cross-agent
 * rules ({@code service_resource_inference.json}) define them:
 * <ul>
 *   <li>non-exit spans have none;</li>
 *   <li>a target type or name set explicitly (by the user or the plugin) wins; a missing type is inferred;</li>
 *   <li>the type is the span subtype, or the span type when there is no subtype;</li>
 *   <li>the name comes from the span's context, in this order: a db context gives the db instance, a message context
 *   gives the queue name, an http context gives {@code host:port} (then the resource is the name alone);</li>
 *   <li>the resource is {@code type/name}, or {@code type} when there is no name.</li>
 * </ul>
 * Pure and allocation-free: results go to a reusable {@link InferredTarget}.
 *
 * <pre>{@code
 * ServiceTargets.infer(true, "db", "postgresql", null, null, ServiceTargets.CONTEXT_DB, "orders", target);
 * // target: type "postgresql", name "orders", resource "postgresql/orders"
 * }</pre>
 */
public final class ServiceTargets {

    /** The span has no db, message or http context. */
    public static final int CONTEXT_NONE = 0;
    /** The span has a db context; the context name is the db instance (may be null). */
    public static final int CONTEXT_DB = 1;
    /** The span has a message context; the context name is the queue name (may be null). */
    public static final int CONTEXT_MESSAGE = 2;
    /** The span has an http context; the context name is {@code host:port} (see {@link #appendHostPort}). */
    public static final int CONTEXT_HTTP = 3;

    private ServiceTargets() {
    }

    /**
     * Fills {@code out} (reset first) for a span.
     *
     * @param exit           whether the span is an exit span; when false {@code out} stays absent
     * @param type           span type, e.g. "db", "messaging", "external"
     * @param subtype        span subtype or null, e.g. "postgresql", "kafka", "http"
     * @param explicitType   service.target.type set explicitly, or null
     * @param explicitName   service.target.name set explicitly, or null
     * @param contextKind    one of the CONTEXT_ constants: which context the span carries
     * @param contextName    db instance, queue name or host:port for that context; null when absent
     * @param out            receives the result
     * @return whether a target was derived
     */
    public static boolean infer(boolean exit, String type, String subtype, String explicitType,
                                CharSequence explicitName, int contextKind, CharSequence contextName,
                                InferredTarget out) {
        out.reset();
        if (!exit) {
            return false;
        }
        String targetType = isEmpty(subtype) ? type : subtype;
        if (!isEmpty(explicitType) || !isEmpty(explicitName)) {
            out.set(isEmpty(explicitType) ? targetType : explicitType, explicitName, false);
            return true;
        }
        if (isEmpty(targetType)) {
            return false;
        }
        out.set(targetType, contextKind == CONTEXT_NONE ? null : contextName, contextKind == CONTEXT_HTTP);
        return true;
    }

    /** Shorthand for a db exit span: {@code subtype/instance}, or {@code subtype} without an instance. */
    public static boolean inferDb(String subtype, CharSequence instance, InferredTarget out) {
        return infer(true, "db", subtype, null, null, CONTEXT_DB, instance, out);
    }

    /**
     * Appends the {@code host:port} of an absolute URL, with the scheme's default port (http 80, https 443, ws 80,
     * wss 443) when none is given; appends nothing and returns false when there is no host or no known port.
     */
    public static boolean appendHostPort(CharSequence url, StringBuilder out) {
        if (url == null) {
            return false;
        }
        int n = url.length();
        int schemeEnd = indexOf(url, "://", 0);
        if (schemeEnd <= 0) {
            return false;
        }
        int hostStart = schemeEnd + 3;
        int authorityEnd = hostStart;
        while (authorityEnd < n) {
            char c = url.charAt(authorityEnd);
            if (c == '/' || c == '?' || c == '#') {
                break;
            }
            authorityEnd++;
        }
        for (int i = authorityEnd - 1; i >= hostStart; i--) {
            if (url.charAt(i) == '@') {
                hostStart = i + 1;
                break;
            }
        }
        int hostEnd = authorityEnd;
        int portStart = -1;
        if (hostStart < authorityEnd && url.charAt(hostStart) == '[') {
            int close = hostStart;
            while (close < authorityEnd && url.charAt(close) != ']') {
                close++;
            }
            if (close >= authorityEnd) {
                return false;
            }
            hostEnd = close + 1;
            if (hostEnd < authorityEnd) {
                if (url.charAt(hostEnd) != ':') {
                    return false;
                }
                portStart = hostEnd + 1;
            }
        } else {
            for (int i = hostStart; i < authorityEnd; i++) {
                if (url.charAt(i) == ':') {
                    hostEnd = i;
                    portStart = i + 1;
                    break;
                }
            }
        }
        if (hostEnd <= hostStart) {
            return false;
        }
        int port;
        if (portStart >= 0 && portStart < authorityEnd) {
            port = 0;
            for (int i = portStart; i < authorityEnd; i++) {
                char c = url.charAt(i);
                if (c < '0' || c > '9' || port > 65535) {
                    return false;
                }
                port = port * 10 + (c - '0');
            }
            if (port > 65535) {
                return false;
            }
        } else {
            port = Http.defaultPort(url, schemeEnd);
            if (port < 0) {
                return false;
            }
        }
        out.append(url, hostStart, hostEnd).append(':').append(port);
        return true;
    }

    private static int indexOf(CharSequence s, String needle, int from) {
        int n = s.length() - needle.length();
        outer:
        for (int i = from; i <= n; i++) {
            for (int j = 0; j < needle.length(); j++) {
                if (s.charAt(i + j) != needle.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static boolean isEmpty(CharSequence s) {
        return s == null || s.length() == 0;
    }
}
