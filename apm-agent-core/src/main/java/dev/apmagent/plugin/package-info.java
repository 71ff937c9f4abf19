/**
 * The plugin contract: a {@link dev.apmagent.plugin.Plugin} names its {@link dev.apmagent.plugin.Instrumentation}s,
 * each declaring matchers and an advice class by name. Nothing here runs on an application thread; no tracer logic
 * lives here.
 */
package dev.apmagent.plugin;
