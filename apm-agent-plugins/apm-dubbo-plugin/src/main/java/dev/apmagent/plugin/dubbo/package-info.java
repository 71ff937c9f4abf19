/**
 * The Apache Dubbo plugin (2.7.3+ and 3.x): an exit span per outgoing invocation and a transaction per incoming one,
 * with W3C trace context carried in the invocation's attachments. Dubbo is hooked through {@code MonitorFilter}, a
 * filter of Dubbo's default chain on both sides (see README.md for why). The plugin, its option and their snapshot are
 * {@link dev.apmagent.plugin.dubbo.DubboPlugin}; advice lives in {@link dev.apmagent.plugin.dubbo.DubboInstrumentation};
 * all logic in {@link dev.apmagent.plugin.dubbo.DubboHelper}, with {@code AsyncWatchdog} (a task of the agent's
 * scheduler) for asynchronous invocations that never complete; the only code that touches Dubbo's types is the
 * adapter in the {@code helper} sub-package, defined next to Dubbo by {@link dev.apmagent.plugin.LibraryHelper}.
 * Nothing here stores agent objects in Dubbo's context or attachments: only strings go there, and no thread is started.
 */
package dev.apmagent.plugin.dubbo;
