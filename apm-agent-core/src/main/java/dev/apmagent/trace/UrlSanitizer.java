package dev.apmagent.trace;

import dev.apmagent.config.Config;
import dev.apmagent.config.ConfigOption;
import dev.apmagent.config.WildcardMatcherList;

/**
 * The one rule for secrets in URLs, applied by {@link Url} and {@link Http} to everything they give the reporter:
 * the value of every query parameter and path parameter ({@code ;name=value}) whose name matches
 * {@code sanitize_field_names} becomes {@value #REDACTED}, and the user-info of a full URL ({@code user:pass@}) too.
 * Names, separators and everything else are kept as they were.
 *
 * <ul>
 * <li>Query parameters are separated by {@code &}; a {@code #} (a fragment, which clients do not send but a URL an
 * application hands to its HTTP client may carry) starts a new parameter too, so {@code #access_token=...} is
 * redacted. {@code ;} is not a query separator (servlet containers do not split on it).</li>
 * <li>Path parameters start at {@code ;} in any segment and end at the next {@code ;} or {@code /}:
 * {@code /a;jsessionid=x/b} gives {@code /a;jsessionid=[REDACTED]/b}.</li>
 * <li>A name is matched after decoding {@code +} and percent-escapes of ASCII characters, as the application reads
 * it ({@code pass%77ord} is {@code password}); escapes of non-ASCII bytes are matched as written.</li>
 * <li>Every occurrence of a repeated name is redacted; an empty value too ({@code password=} gives
 * {@code password=[REDACTED]}, hiding whether one was given); a name without {@code =} has no value and is kept.</li>
 * </ul>
 *
 * <p>Nothing here runs on the application's threads: {@link Url} and {@link Http} keep the references the plugin set
 * and sanitize when the reporter reads them. When nothing needs redacting the input itself is returned and nothing is
 * copied or allocated; otherwise the result is written into a builder the caller owns (allocation-free once it has
 * grown). Thread-safe: an instance holds only the immutable list of names.
 */
public final class UrlSanitizer {

    /** The marker that replaces a sensitive value, as for headers and cookies. */
    public static final String REDACTED = ConfigOption.REDACTED;

    private static final UrlSanitizer DEFAULTS = of(Config.defaults());

    private final WildcardMatcherList names;

    public UrlSanitizer(WildcardMatcherList names) {
        this.names = names == null ? WildcardMatcherList.EMPTY : names;
    }

    /** The sanitizer of {@code sanitize_field_names} in {@code config}. */
    public static UrlSanitizer of(Config config) {
        return new UrlSanitizer(config.get(HttpOptions.SANITIZE_FIELD_NAMES));
    }

    /** The sanitizer of the default {@code sanitize_field_names} (stand-alone events of tests). */
    public static UrlSanitizer defaults() {
        return DEFAULTS;
    }

    /**
     * A path with the values of sensitive path parameters redacted: {@code path} itself when there is nothing to
     * redact (or it is null), otherwise {@code out}, cleared and filled.
     *
     * @param scratch a builder the name is decoded into
     */
    public CharSequence path(CharSequence path, StringBuilder out, StringBuilder scratch) {
        if (path == null || names.isEmpty() || indexOf(path, ';', 0, path.length()) < 0
                || params(path, 0, path.length(), true, null, scratch) == 0) {
            return path;
        }
        out.setLength(0);
        params(path, 0, path.length(), true, out, scratch);
        return out;
    }

    /** A query string (without '?') with the values of sensitive parameters redacted; otherwise as {@link #path}. */
    public CharSequence query(CharSequence query, StringBuilder out, StringBuilder scratch) {
        if (query == null || names.isEmpty() || indexOf(query, '=', 0, query.length()) < 0
                || params(query, 0, query.length(), false, null, scratch) == 0) {
            return query;
        }
        out.setLength(0);
        params(query, 0, query.length(), false, out, scratch);
        return out;
    }

    /**
     * A full URL ({@code scheme://[userinfo@]host[:port][path][?query][#fragment]}, or one without scheme and authority)
     * with its user-info, sensitive path parameters and sensitive query and fragment parameters redacted; otherwise as
     * {@link #path}.
     */
    public CharSequence url(CharSequence url, StringBuilder out, StringBuilder scratch) {
        if (url == null) {
            return null;
        }
        int len = url.length();
        int authority = authorityStart(url);
        int pathStart = authority;
        int at = -1;
        if (authority > 0) {
            while (pathStart < len) {
                char c = url.charAt(pathStart);
                if (c == '/' || c == '?' || c == '#') {
                    break;
                }
                if (c == '@') {
                    at = pathStart; // the last '@' ends the user-info
                }
                pathStart++;
            }
        }
        int queryStart = pathStart;
        while (queryStart < len && url.charAt(queryStart) != '?' && url.charAt(queryStart) != '#') {
            queryStart++;
        }
        boolean checkNames = !names.isEmpty();
        if (at < 0 && (!checkNames || (params(url, pathStart, queryStart, true, null, scratch) == 0
                && (queryStart == len || params(url, queryStart + 1, len, false, null, scratch) == 0)))) {
            return url;
        }
        out.setLength(0);
        if (at >= 0) {
            out.append(url, 0, authority).append(REDACTED).append(url, at, pathStart);
        } else {
            out.append(url, 0, pathStart);
        }
        if (checkNames) {
            params(url, pathStart, queryStart, true, out, scratch);
        } else {
            out.append(url, pathStart, queryStart);
        }
        if (queryStart < len) {
            out.append(url.charAt(queryStart));
            if (checkNames) {
                params(url, queryStart + 1, len, false, out, scratch);
            } else {
                out.append(url, queryStart + 1, len);
            }
        }
        return out;
    }

    /**
     * Whether the parameter name {@code s[from, to)}, decoded ('+' and ASCII percent-escapes) into {@code scratch},
     * matches {@code sanitize_field_names}.
     */
    boolean isSensitiveName(CharSequence s, int from, int to, StringBuilder scratch) {
        scratch.setLength(0);
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '+') {
                c = ' ';
            } else if (c == '%' && i + 2 < to) {
                int hi = hex(s.charAt(i + 1));
                int lo = hex(s.charAt(i + 2));
                if (hi >= 0 && lo >= 0 && hi < 8) {
                    c = (char) (hi << 4 | lo);
                    i += 2;
                }
            }
            scratch.append(c);
        }
        return names.matches(scratch);
    }

    /**
     * Copies {@code s[from, to)} to {@code out} (null: only counts) with sensitive values redacted; returns how many
     * were. Path mode: parameters start at ';' and end at ';' or '/'. Query mode: parameters are separated by '&' or '#'.
     */
    private int params(CharSequence s, int from, int to, boolean path, StringBuilder out, StringBuilder scratch) {
        int redacted = 0;
        int i = from;
        if (path) {
            while (i < to) {
                int semicolon = indexOf(s, ';', i, to);
                if (semicolon < 0) {
                    if (out != null) {
                        out.append(s, i, to);
                    }
                    break;
                }
                if (out != null) {
                    out.append(s, i, semicolon + 1);
                }
                int end = semicolon + 1;
                while (end < to && s.charAt(end) != ';' && s.charAt(end) != '/') {
                    end++;
                }
                redacted += param(s, semicolon + 1, end, out, scratch);
                i = end;
            }
            return redacted;
        }
        while (true) {
            int end = i;
            while (end < to && s.charAt(end) != '&' && s.charAt(end) != '#') {
                end++;
            }
            redacted += param(s, i, end, out, scratch);
            if (end >= to) {
                return redacted;
            }
            if (out != null) {
                out.append(s.charAt(end));
            }
            i = end + 1;
        }
    }

    /** One {@code name[=value]} in {@code s[from, to)}: copied, or with its value redacted (returns 1). */
    private int param(CharSequence s, int from, int to, StringBuilder out, StringBuilder scratch) {
        int eq = indexOf(s, '=', from, to);
        if (eq >= 0 && isSensitiveName(s, from, eq, scratch)) {
            if (out != null) {
                out.append(s, from, eq + 1).append(REDACTED);
            }
            return 1;
        }
        if (out != null) {
            out.append(s, from, to);
        }
        return 0;
    }

    /** Index just after {@code scheme://}, or 0 when {@code url} does not start with a scheme and "//". */
    private static int authorityStart(CharSequence url) {
        int len = url.length();
        for (int i = 0; i < len; i++) {
            char c = url.charAt(i);
            if (c == ':') {
                return i > 0 && regionIsSlashes(url, i + 1) ? i + 3 : 0;
            }
            boolean schemeChar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && ((c >= '0' && c <= '9')
                    || c == '+' || c == '-' || c == '.'));
            if (!schemeChar) {
                return 0;
            }
        }
        return 0;
    }

    private static boolean regionIsSlashes(CharSequence s, int at) {
        return at + 1 < s.length() && s.charAt(at) == '/' && s.charAt(at + 1) == '/';
    }

    private static int indexOf(CharSequence s, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
