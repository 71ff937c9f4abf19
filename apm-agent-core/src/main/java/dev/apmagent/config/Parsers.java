package dev.apmagent.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** The value parsers options are declared with. Each throws {@link IllegalArgumentException} with a reason. */
public final class Parsers {

    private Parsers() {
    }

    public static final ConfigOption.ValueParser<String> STRING = new ConfigOption.ValueParser<String>() {
        @Override
        public String parse(String raw) {
            return raw.trim();
        }
    };

    public static final ConfigOption.ValueParser<Boolean> BOOLEAN = new ConfigOption.ValueParser<Boolean>() {
        @Override
        public Boolean parse(String raw) {
            String v = raw.trim().toLowerCase(Locale.ROOT);
            if (v.equals("true")) {
                return Boolean.TRUE;
            }
            if (v.equals("false")) {
                return Boolean.FALSE;
            }
            throw new IllegalArgumentException("expected true or false");
        }
    };

    public static final ConfigOption.ValueParser<Integer> INTEGER = new ConfigOption.ValueParser<Integer>() {
        @Override
        public Integer parse(String raw) {
            try {
                return Integer.valueOf(raw.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a whole number");
            }
        }
    };

    public static final ConfigOption.ValueParser<Double> DOUBLE = new ConfigOption.ValueParser<Double>() {
        @Override
        public Double parse(String raw) {
            try {
                double d = Double.parseDouble(raw.trim());
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw new IllegalArgumentException("expected a finite number");
                }
                return d;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a number");
            }
        }
    };

    /**
     * Comma-separated list; blanks dropped, entries trimmed. A blank text is the empty list; a text that is not blank
     * but holds no entry ({@code ",,,"}) is malformed, so that a slip cannot turn a protective list (such as
     * {@code sanitize_field_names}) into an empty one: the loader warns and keeps the default. Every list parser
     * ({@link #WILDCARD_LIST}, {@link #HTTP_URL_LIST}) splits with this one.
     */
    public static final ConfigOption.ValueParser<List<String>> LIST = new ConfigOption.ValueParser<List<String>>() {
        @Override
        public List<String> parse(String raw) {
            List<String> out = new ArrayList<String>();
            for (String part : raw.split(",")) {
                String t = part.trim();
                if (!t.isEmpty()) {
                    out.add(t);
                }
            }
            if (out.isEmpty() && !raw.trim().isEmpty()) {
                throw new IllegalArgumentException("the list has no entries, only commas and blanks");
            }
            return Collections.unmodifiableList(out);
        }
    };

    /** Comma-separated wildcard patterns (see {@link WildcardMatcher}); blanks dropped, entries trimmed. */
    public static final ConfigOption.ValueParser<WildcardMatcherList> WILDCARD_LIST = new ConfigOption.ValueParser<WildcardMatcherList>() {
        @Override
        public WildcardMatcherList parse(String raw) {
            return WildcardMatcherList.of(LIST.parse(raw));
        }
    };

    /**
     * An absolute http or https URL with a host and, when it names a port, a port from 1 to 65535; returned as given
     * (trimmed, trailing '/' removed). User information ({@code http://user:password@host}) is accepted but never
     * shown: see {@link UrlUserInfo}.
     */
    public static final ConfigOption.ValueParser<String> HTTP_URL = new ConfigOption.ValueParser<String>() {
        @Override
        public String parse(String raw) {
            String v = raw.trim();
            java.net.URI uri;
            try {
                uri = new java.net.URI(v);
            } catch (java.net.URISyntaxException e) {
                throw new IllegalArgumentException("not a URL (" + e.getReason() + ")");
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new IllegalArgumentException("expected an http:// or https:// URL");
            }
            if (uri.getHost() == null) {
                String authority = uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
                int colon = authority.lastIndexOf(':');
                if (colon >= 0 && colon < authority.length() - 1 && isPortLike(authority.substring(colon + 1))) {
                    throw new IllegalArgumentException("the port is out of range (1 to 65535)");
                }
                throw new IllegalArgumentException("the URL has no host");
            }
            if (uri.getPort() == 0 || uri.getPort() > 65_535) {
                throw new IllegalArgumentException("the port " + uri.getPort() + " is out of range (1 to 65535)");
            }
            while (v.endsWith("/")) {
                v = v.substring(0, v.length() - 1);
            }
            return v;
        }
    };

    private static boolean isPortLike(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9') && !(i == 0 && c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** Comma-separated {@link #HTTP_URL}s; one malformed entry rejects the whole value. */
    public static final ConfigOption.ValueParser<List<String>> HTTP_URL_LIST = new ConfigOption.ValueParser<List<String>>() {
        @Override
        public List<String> parse(String raw) {
            List<String> out = new ArrayList<String>();
            for (String url : LIST.parse(raw)) {
                try {
                    out.add(HTTP_URL.parse(url));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("entry " + (out.size() + 1) + ": " + e.getMessage());
                }
            }
            return Collections.unmodifiableList(out);
        }
    };

    /** An integer within [min, max]. */
    public static ConfigOption.ValueParser<Integer> intRange(final int min, final int max) {
        return new ConfigOption.ValueParser<Integer>() {
            @Override
            public Integer parse(String raw) {
                int v = INTEGER.parse(raw);
                if (v < min || v > max) {
                    throw new IllegalArgumentException("must be between " + min + " and " + max);
                }
                return v;
            }
        };
    }

    /** A double within [min, max]. */
    public static ConfigOption.ValueParser<Double> doubleRange(final double min, final double max) {
        return new ConfigOption.ValueParser<Double>() {
            @Override
            public Double parse(String raw) {
                double v = DOUBLE.parse(raw);
                if (v < min || v > max) {
                    throw new IllegalArgumentException("must be between " + min + " and " + max);
                }
                return v;
            }
        };
    }

    /** One of the given lower-case values (matched case-insensitively). */
    public static ConfigOption.ValueParser<String> oneOf(final String... allowed) {
        return new ConfigOption.ValueParser<String>() {
            @Override
            public String parse(String raw) {
                String v = raw.trim().toLowerCase(Locale.ROOT);
                for (String a : allowed) {
                    if (a.equals(v)) {
                        return a;
                    }
                }
                StringBuilder sb = new StringBuilder("expected one of ");
                for (int i = 0; i < allowed.length; i++) {
                    sb.append(i == 0 ? "" : ", ").append(allowed[i]);
                }
                throw new IllegalArgumentException(sb.toString());
            }
        };
    }

    /** A duration such as {@code 500ms}, {@code 5s}, {@code 1m}, {@code 2h}; a bare number is read in the given default unit. Returns milliseconds. */
    public static ConfigOption.ValueParser<Long> durationMillis(final String defaultUnit) {
        if (unitFactorMillis(defaultUnit) < 0) {
            throw new IllegalArgumentException("unknown default duration unit '" + defaultUnit + "'");
        }
        return new ConfigOption.ValueParser<Long>() {
            @Override
            public Long parse(String raw) {
                String v = raw.trim().toLowerCase(Locale.ROOT);
                int end = v.length();
                while (end > 0 && Character.isLetter(v.charAt(end - 1))) {
                    end--;
                }
                String number = v.substring(0, end).trim();
                String unit = end == v.length() ? defaultUnit : v.substring(end);
                long n;
                try {
                    n = Long.parseLong(number);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("expected a duration such as 500ms, 5s or 1m");
                }
                if (n < 0) {
                    throw new IllegalArgumentException("a duration cannot be negative");
                }
                long factor = unitFactorMillis(unit);
                if (factor < 0) {
                    throw new IllegalArgumentException("unknown duration unit '" + unit + "' (use ms, s, m or h)");
                }
                if (n > Long.MAX_VALUE / factor) {
                    throw new IllegalArgumentException("duration too large");
                }
                return n * factor;
            }
        };
    }

    /**
     * A {@link #durationMillis duration} of at least {@code minMillis}; with {@code zeroTurnsOff}, 0 is accepted too
     * (the option is then off). For intervals whose tiny values would have the agent flood the APM Server or its own
     * log.
     */
    public static ConfigOption.ValueParser<Long> durationAtLeast(final String defaultUnit, final long minMillis,
                                                                 final boolean zeroTurnsOff) {
        final ConfigOption.ValueParser<Long> duration = durationMillis(defaultUnit);
        return new ConfigOption.ValueParser<Long>() {
            @Override
            public Long parse(String raw) {
                long v = duration.parse(raw);
                if (v < minMillis && !(v == 0 && zeroTurnsOff)) {
                    throw new IllegalArgumentException((zeroTurnsOff ? "must be 0 (off) or at least " : "must be at least ")
                            + formatMillis(minMillis));
                }
                return v;
            }
        };
    }

    private static String formatMillis(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    private static long unitFactorMillis(String unit) {
        if (unit.equals("ms")) {
            return 1;
        } else if (unit.equals("s")) {
            return 1000;
        } else if (unit.equals("m")) {
            return 60_000;
        } else if (unit.equals("h")) {
            return 3_600_000;
        }
        return -1;
    }

    /** A size such as {@code 768kb}, {@code 4mb}, {@code 1gb} or a bare number of bytes. Returns bytes. */
    public static final ConfigOption.ValueParser<Long> BYTES = new ConfigOption.ValueParser<Long>() {
        @Override
        public Long parse(String raw) {
            String v = raw.trim().toLowerCase(Locale.ROOT);
            int end = v.length();
            while (end > 0 && Character.isLetter(v.charAt(end - 1))) {
                end--;
            }
            String number = v.substring(0, end).trim();
            String unit = v.substring(end);
            long n;
            try {
                n = Long.parseLong(number);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a size such as 768kb or 4mb");
            }
            if (n < 0) {
                throw new IllegalArgumentException("a size cannot be negative");
            }
            long factor;
            if (unit.isEmpty() || unit.equals("b")) {
                factor = 1;
            } else if (unit.equals("kb")) {
                factor = 1024;
            } else if (unit.equals("mb")) {
                factor = 1024 * 1024;
            } else if (unit.equals("gb")) {
                factor = 1024L * 1024 * 1024;
            } else {
                throw new IllegalArgumentException("unknown size unit '" + unit + "' (use b, kb, mb or gb)");
            }
            if (n > Long.MAX_VALUE / factor) {
                throw new IllegalArgumentException("size too large");
            }
            return n * factor;
        }
    };
}
