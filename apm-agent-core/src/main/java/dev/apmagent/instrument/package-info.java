/**
 * The one ByteBuddy {@code AgentBuilder}: plugin discovery, selection by configuration, ignore rules, cheap-first
 * matching, and the helper class loaders through which advice reaches code that needs a library's types. No tracer
 * logic lives here; nothing here runs on an application thread except {@link dev.apmagent.instrument.LibraryHelper}
 * lookups.
 */
package dev.apmagent.instrument;
