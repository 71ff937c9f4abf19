/**
 * Option definitions (key, type, default, documentation), their parsers, the sources they are read from, and the
 * immutable {@link dev.apmagent.config.Config} snapshot. Components read the snapshot once when they are built; no
 * hot path reads configuration per call.
 */
package dev.apmagent.config;
