/**
 * Option definitions ({@link dev.apmagent.config.ConfigOption}: key, type, default, documentation) grouped by
 * {@link dev.apmagent.config.OptionProvider}s found through ServiceLoader, their {@link dev.apmagent.config.Parsers},
 * the {@link dev.apmagent.config.ConfigLoader} that reads agent arguments, system properties, environment variables
 * and the properties file into one immutable {@link dev.apmagent.config.Config} snapshot plus warnings, the
 * {@link dev.apmagent.config.WildcardMatcher}s and service-name derivation. Components read the snapshot once when
 * they are built; no hot path reads configuration per call. Only the wildcard matchers may run on application threads
 * (allocation-free). Nothing here reads the real environment by itself: start-up passes it in. The generator of
 * docs/configuration.md is a tool and lives in apm-agent-tools, not here.
 */
package dev.apmagent.config;
