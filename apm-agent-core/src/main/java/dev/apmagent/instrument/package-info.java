/**
 * The agent's one class file hook ({@link dev.apmagent.instrument.AgentClassFileTransformer}, ByteBuddy advice) and
 * its installation: plugin discovery, selection by configuration, ignore rules, cheap-first matching, and the helper
 * class loaders through which advice reaches code that needs a library's types. No tracer logic lives here; an
 * application thread runs this code only while it loads a class, and for {@link dev.apmagent.plugin.LibraryHelper}
 * lookups.
 */
package dev.apmagent.instrument;
