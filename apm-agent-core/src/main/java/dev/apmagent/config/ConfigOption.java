package dev.apmagent.config;

/**
 * One configuration option: its key (as the Elastic agent names it), type, default and documentation.
 * Options are declared as {@code static final} fields of an {@link OptionProvider} and read from an immutable
 * {@link Config} snapshot; a value that does not parse falls back to the default with one warning.
 *
 * @param <T> the parsed value type
 */
public final class ConfigOption<T> {

    private final String key;
    private final String type;
    private final String defaultText;
    private final T defaultValue;
    private final String description;
    private final ValueParser<T> parser;
    private final boolean sensitive;

    private ConfigOption(String key, String type, String defaultText, ValueParser<T> parser, String description, boolean sensitive) {
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
