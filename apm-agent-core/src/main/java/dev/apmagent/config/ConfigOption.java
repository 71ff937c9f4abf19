package dev.apmagent.config;

/**
 * One configuration option: its key (as the Elastic agent names it), type, default and documentation.
 * Options are declared as {@code static final} fields of an {@link OptionProvider} and read from an immutable
 * {@link Config} snapshot; a value that does not parse falls back to the default with one warning.
 *
 * @param <T> the parsed value type
 */
public final class ConfigOption<T> {

    /** What is printed instead of the value of a sensitive option. */
    public static final String REDACTED = "[REDACTED]";

    private final String key;
    private final String type;
    private final String defaultText;
    private final T defaultValue;
    private final String description;
    private final ValueParser<T> parser;
    private final boolean sensitive;

    private ConfigOption(String key, String type, String defaultText, ValueParser<T> parser, String description, boolean sensitive) {
        if (key == null || !isKeyShaped(key)) {
            throw new IllegalStateException("option key must match [a-z][a-z0-9_]*: " + key);
        }
        if (type == null || description == null || parser == null) {
            throw new IllegalStateException("option " + key + " needs a type, a parser and a description");
        }
        this.key = key;
        this.type = type;
        this.defaultText = defaultText;
        this.parser = parser;
        this.description = description;
        this.sensitive = sensitive;
        try {
            this.defaultValue = defaultText == null ? null : parser.parse(defaultText);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("default of " + key + " does not parse: " + e.getMessage(), e);
        }
    }

    public static <T> ConfigOption<T> of(String key, String type, String defaultText, ValueParser<T> parser, String description) {
        return new ConfigOption<T>(key, type, defaultText, parser, description, false);
    }

    /** An option whose value is a secret: it is never logged or printed. */
    public static <T> ConfigOption<T> secret(String key, String type, String defaultText, ValueParser<T> parser, String description) {
        return new ConfigOption<T>(key, type, defaultText, parser, description, true);
    }

    public String key() {
        return key;
    }

    /** Human-readable type, as shown in docs/configuration.md (Boolean, Integer, Duration, ...). */
    public String type() {
        return type;
    }

    /** The default as text, as documented; null when the option has no default. */
    public String defaultText() {
        return defaultText;
    }

    public T defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    public boolean isSensitive() {
        return sensitive;
    }

    /**
     * The text to print for a value of this option: {@link #REDACTED} when the option is sensitive; otherwise the value,
     * with the user information of any URL in it redacted ({@code http://[REDACTED]@host}).
     */
    public String display(Object value) {
        if (sensitive) {
            return REDACTED;
        }
        return UrlUserInfo.redact(String.valueOf(value));
    }

    /** Whether {@code s} has the shape of an option key: a lower-case letter, then lower-case letters, digits or '_'. */
    static boolean isKeyShaped(CharSequence s) {
        if (s.length() == 0) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (i > 0 && ((c >= '0' && c <= '9') || c == '_'));
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses a raw value.
     *
     * @throws IllegalArgumentException with a reason a user can act on when the value is malformed
     */
    public T parse(String raw) {
        return parser.parse(raw);
    }

    @Override
    public String toString() {
        return key;
    }

    /** Turns the text of a value into its typed form, or throws {@link IllegalArgumentException} with the reason. */
    public interface ValueParser<T> {
        T parse(String raw);
    }
}
