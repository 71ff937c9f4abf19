/**
 * The trace viewer behind {@code java -jar apm-agent.jar view FILE}: reads an NDJSON intake-v2 event file (what the
 * agent writes to {@code output_file} and sends to the APM Server), prints each trace as an indented waterfall and a
 * summary (durations per transaction name, time per span type, the agent's own {@code agent.events.*} counters). It is
 * a command-line tool of apm-agent-tools: it never runs inside the application, so it allocates freely, and it reads
 * the event format only, never the agent's classes; nothing in the agent's runtime packages may depend on it.
 */
package dev.apmagent.view;
