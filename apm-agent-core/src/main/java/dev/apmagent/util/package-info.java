/**
 * Small pure helpers shared by the tracer and the plugins: W3C trace-context header parsing and formatting
 * ({@link dev.apmagent.util.TraceParentHeader}, {@link dev.apmagent.util.TraceState}) and the service target /
 * destination resource rules ({@link dev.apmagent.util.ServiceTargets}). Everything here is a function of its
 * arguments or a reusable holder: no tracer state, no configuration, no logging, no threads, and nothing that
 * allocates on the hot path. Code that needs the tracer does not belong here.
 */
package dev.apmagent.util;
