package dev.apmagent.report;

import dev.apmagent.trace.ErrorEvent;
import dev.apmagent.trace.Span;
import dev.apmagent.trace.Transaction;

/** The {@link EventCodec} for the tracer's event model: one serializer per event type. Reporter thread only. */
final class ModelCodec implements EventCodec {

    private final ErrorSerializer errorSerializer = new ErrorSerializer();

    @Override
    public int type(Object event) {
        if (event instanceof Span) {
            return EventTypes.SPAN;
        }
        if (event instanceof Transaction) {
            return EventTypes.TRANSACTION;
        }
        return EventTypes.ERROR;
    }

    @Override
    public void serialize(Object event, JsonHelper out) {
        if (event instanceof Span) {
            SpanSerializer.serialize((Span) event, out);
        } else if (event instanceof Transaction) {
            TransactionSerializer.serialize((Transaction) event, out);
        } else {
            errorSerializer.serialize((ErrorEvent) event, out);
        }
    }

    @Override
    public void release(Object event) {
        if (event instanceof Span) {
            ((Span) event).decrementReferences();
        } else if (event instanceof Transaction) {
            ((Transaction) event).decrementReferences();
        } else if (event instanceof ErrorEvent) {
            ((ErrorEvent) event).decrementReferences();
        }
    }
}
