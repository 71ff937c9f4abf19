/**
 * The tracing data model and the tracer: {@link dev.apmagent.trace.Tracer} starts pooled, reference-counted
 * transactions, spans and errors, keeps each thread's active stack, decides sampling from the trace id and hands ended
 * events to a {@link dev.apmagent.trace.Reporter}; the event classes are the binding contract the reporter serializes.
 * Nothing here does I/O, serializes, logs on the hot path, parses headers or knows a plugin's library; everything an
 * application thread calls is lock-free, allocation-free after warm-up and never throws.
 */
package dev.apmagent.trace;
