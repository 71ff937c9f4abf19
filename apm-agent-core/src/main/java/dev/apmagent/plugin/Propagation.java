package dev.apmagent.plugin;

import dev.apmagent.trace.AbstractSpan;
import dev.apmagent.trace.TraceContext;
import dev.apmagent.trace.TraceParentHeader;
import dev.apmagent.trace.TraceState;
import dev.apmagent.trace.Tracer;
import dev.apmagent.trace.Transaction;

/**
 * Trace context in and out of any carrier (HTTP headers, RPC attachments): one helper for every plugin, so that every
 * protocol continues and propagates traces by the same rules.
 *
 * <ul>
 *   <li>In: {@code traceparent} (W3C), else the older {@code elastic-apm-traceparent}; {@code tracestate} values are
 *   concatenated and their Elastic entry {@code es=s:<rate>} gives the caller's sample rate. The caller's sampling
 *   decision wins. A malformed header of any kind starts a new trace.</li>
 *   <li>Out: {@code traceparent} with the exit span (or the active event) as parent, {@code tracestate} with our
 *   {@code es} entry first and the caller's other vendors after it, and {@code elastic-apm-traceparent} for agents that
 *   only know that header.</li>
 * </ul>
 * Parsing uses per-thread holders and allocates nothing; writing allocates the header strings, as carriers take
 * strings.
 */
public final class Propagation {

    private static final ThreadLocal<Holders> holders = new ThreadLocal<Holders>() {
        @Override
        protected Holders initialValue() {
            return new Holders();
        }
    };

    private Propagation() {
    }

    /** Reads one header of a carrier. */
    public interface HeaderGetter<C> {
        /** The first value of header {@code name}, or null. */
        String first(C carrier, String name);

        /** Every value of header {@code name}, handed to {@code sink} one by one. */
        void all(C carrier, String name, HeaderSink sink);
    }

    /** Writes one header into a carrier. */
    public interface HeaderSetter<C> {
        void set(C carrier, String name, String value);
    }

    /** Receives header values. */
    public interface HeaderSink {
        void accept(String value);
    }

    /** Starts a transaction that continues the carrier's trace, or a root transaction when it has none or a malformed one. */
    public static <C> Transaction startTransaction(Tracer tracer, C carrier, HeaderGetter<C> getter) {
        String name = TraceParentHeader.TRACEPARENT;
        if (getter.first(carrier, name) == null) {
            name = TraceParentHeader.ELASTIC_TRACEPARENT;
            if (getter.first(carrier, name) == null) {
                return tracer.startRootTransaction(); // the common case: no allocation, no enumeration of headers
            }
        }
        Holders h = holders.get();
        TraceParentHeader parent = h.traceParent;
        parent.reset();
        h.target = parent;
        getter.all(carrier, name, h); // every value: a repeated traceparent is invalid (W3C)
        if (!parent.isValid()) {
            return tracer.startRootTransaction();
        }
        TraceState state = h.traceState();
        state.reset();
        h.target = state;
        getter.all(carrier, TraceParentHeader.TRACESTATE, h);
        String outgoingState = state.memberCount() > 0 ? state.toOutgoing(state.sampleRate()) : null;
        return tracer.startTransaction(parent.traceIdHigh(), parent.traceIdLow(), parent.parentId(), parent.flags(),
                state.sampleRate(), outgoingState);
    }

    /**
     * Writes the trace context of {@code parent} (the exit span of the outgoing call, or the active event) into the
     * carrier.
     *
     * @param elasticHeader also write {@code elastic-apm-traceparent}
     */
    public static <C> void inject(AbstractSpan parent, C carrier, HeaderSetter<C> setter, boolean elasticHeader) {
        TraceContext context = parent.traceContext();
        Holders h = holders.get();
        context.writeTraceparent(h.traceparentChars, 0);
        String traceparent = new String(h.traceparentChars);
        setter.set(carrier, TraceParentHeader.TRACEPARENT, traceparent);
        if (elasticHeader) {
            setter.set(carrier, TraceParentHeader.ELASTIC_TRACEPARENT, traceparent);
        }
        StringBuilder state = h.outgoingState;
        state.setLength(0);
        CharSequence incoming = context.tracestate();
        if (incoming != null && incoming.length() > 0) {
            state.append(incoming); // already led by our es entry (see startTransaction)
        } else if (context.hasSampleRate()) {
            state.append("es=s:");
            TraceState.appendRate(state, context.sampleRate());
        }
        if (state.length() > 0) {
            setter.set(carrier, TraceParentHeader.TRACESTATE, state.toString());
        }
    }

    /** Per-thread parsing state; the tracestate buffer (a few KB) is only made for threads that receive a trace. */
    private static final class Holders implements HeaderSink {
        final TraceParentHeader traceParent = new TraceParentHeader();
        final char[] traceparentChars = new char[TraceParentHeader.LENGTH];
        final StringBuilder outgoingState = new StringBuilder(64);
        private TraceState traceState;
        Object target;

        TraceState traceState() {
            if (traceState == null) {
                traceState = new TraceState();
            }
            return traceState;
        }

        @Override
        public void accept(String value) {
            if (target == traceParent) {
                traceParent.add(value);
            } else {
                traceState.add(value);
            }
        }
    }
}
