/**
 * JMH benchmarks of what an application thread pays for the agent (the tracer's hot path, the object pools under the
 * cross-thread release pattern, the hand-off and serializers, the SQL signature parser) and the renderer that turns
 * their JSON results into the tables and charts of docs/benchmarks/. Never shipped: nothing here may be referenced by
 * agent code, and comparison designs that live here (e.g. the return-to-origin pools) are not candidates for core
 * unless a benchmark shows they win.
 */
package dev.apmagent.benchmark;
