package dev.apmagent.config;

import java.util.List;

/**
 * A group of options (core, reporter, one per plugin). Implementations are listed in
 * {@code META-INF/services/dev.apmagent.config.OptionProvider} so the registry, the documentation test and the
 * start-up validation all see every option.
 */
public interface OptionProvider {
    /** A title for the group in docs/configuration.md. */
    String category();

    List<ConfigOption<?>> options();
}
