/**
 * The plugin contract and the kit, the one package of the core a plugin imports (besides the event model in
 * {@code dev.apmagent.trace} and option declarations in {@code dev.apmagent.config}): {@link dev.apmagent.plugin.Plugin}
 * and {@link dev.apmagent.plugin.Instrumentation} (matchers, advice named by string); for helpers, the call-depth guard
 * for exit calls (only the outermost call of a kind on a thread records a span, the calls nested in it complete it:
 * {@link dev.apmagent.plugin.ExitCallGuard}, {@link dev.apmagent.plugin.ExitCall}), state attached to library objects
 * ({@link dev.apmagent.plugin.ContextStore}: a context field that the class file hook adds to the classes of a declared
 * key type, {@link dev.apmagent.plugin.ContextField}, or a weak map), trace context in and out of carriers ({@link dev.apmagent.plugin.Propagation}), service targets
 * ({@link dev.apmagent.plugin.ServiceTargets}), helpers defined next to a library ({@link dev.apmagent.plugin.LibraryHelper}),
 * typed settings snapshots ({@link dev.apmagent.plugin.PluginSettings}), failure and activity counters reported in the
 * health metrics ({@link dev.apmagent.plugin.PluginHealth}), periodic work on the agent's own thread
 * ({@link dev.apmagent.plugin.AgentScheduler}), the one way to end a span ({@link dev.apmagent.plugin.SpanExit}), spans
 * that end on another thread or after their deadline ({@link dev.apmagent.plugin.PendingSpan},
 * {@link dev.apmagent.plugin.PendingSpans}) and everything an HTTP client plugin shares
 * ({@link dev.apmagent.plugin.HttpClientExits}, {@link dev.apmagent.plugin.HttpClientRequest}).
 * What is specific to one library stays in its plugin. Nothing here imports the instrumentation machinery, the reporter
 * or the start-up.
 */
package dev.apmagent.plugin;
