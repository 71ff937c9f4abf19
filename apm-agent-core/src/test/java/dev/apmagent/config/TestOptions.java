package dev.apmagent.config;

import java.util.Arrays;
import java.util.List;

/** Options of every parser kind, for loader tests only (deliberately not registered as a service). */
public final class TestOptions implements OptionProvider {

    static final ConfigOption<Long> TIMEOUT = ConfigOption.of("test_timeout", "Duration", "5s", Parsers.durationMillis("s"),
            "A duration whose bare numbers are seconds.");
    static final ConfigOption<Long> SIZE = ConfigOption.of("test_size", "Size", "768kb", Parsers.BYTES, "A size.");
    static final ConfigOption<WildcardMatcherList> IGNORE = ConfigOption.of("test_ignore_urls", "Wildcard list", "/health*",
            Parsers.WILDCARD_LIST, "Wildcards.");
    static final ConfigOption<Integer> SECRET_NUMBER = ConfigOption.secret("test_secret_number", "Integer", null, Parsers.INTEGER,
            "A secret that must be a number.");
    /** Its parser has a bug: it throws NullPointerException for "boom". */
    static final ConfigOption<String> BUGGY = ConfigOption.of("test_buggy", "String", "fine", raw -> {
        if (raw.equals("boom")) {
            throw new NullPointerException();
        }
        return raw;
    }, "A buggy parser.");

    @Override
    public String category() {
        return "Test";
    }

    @Override
    public List<ConfigOption<?>> options() {
        return Arrays.asList(TIMEOUT, SIZE, IGNORE, SECRET_NUMBER, BUGGY);
    }
}
