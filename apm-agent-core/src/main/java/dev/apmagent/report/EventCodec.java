package dev.apmagent.report;

/**
 * What the pipeline needs to know about the events it carries: their type, how to write one as an NDJSON line, and
 * how to give it back (decrement its reference count). Keeps the pipeline independent of the event model.
 */
interface EventCodec {

    /** One of {@link EventTypes}. */
    int type(Object event);

    /** Writes the whole line, {@code {"span":{...}}\n}, into {@code out} (already reset). */
    void serialize(Object event, JsonHelper out);

    /** Releases the pipeline's reference; called exactly once per event, after serializing or when dropping. */
    void release(Object event);
}
