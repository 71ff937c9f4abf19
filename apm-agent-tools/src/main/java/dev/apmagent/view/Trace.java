package dev.apmagent.view;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The events of one trace id, and the time window they cover. */
final class Trace {

    /** Orders by start time, unknown times last, then by the line the event was read from. */
    static final Comparator<Event> BY_START = new Comparator<Event>() {
        @Override
        public int compare(Event a, Event b) {
            if (a.hasTimestamp() != b.hasTimestamp()) {
                return a.hasTimestamp() ? -1 : 1;
            }
            if (a.timestampMicros != b.timestampMicros) {
                return a.timestampMicros < b.timestampMicros ? -1 : 1;
            }
            return a.line < b.line ? -1 : a.line == b.line ? 0 : 1;
        }
    };

    private static final Comparator<Trace> TRACE_BY_START = new Comparator<Trace>() {
        @Override
        public int compare(Trace a, Trace b) {
            return BY_START.compare(a.first, b.first);
        }
    };

    /** The trace id, or null for events that carry none. */
    final String traceId;
    final List<Event> events = new ArrayList<Event>();
    /** The earliest event (by {@link #BY_START}). */
    private Event first;
    /**
     * Window in epoch microseconds; both {@link Event#UNKNOWN_TIME} when no event has a timestamp, and for the group
     * of events without a trace id.
     */
    long startMicros = Event.UNKNOWN_TIME;
    double endMicros = Event.UNKNOWN_TIME;

    private Trace(String traceId) {
        this.traceId = traceId;
    }

    private void add(Event event) {
        events.add(event);
        if (first == null || BY_START.compare(event, first) < 0) {
            first = event;
        }
        // events without a trace id have nothing in common: no shared timeline
        if (event.hasTimestamp() && traceId != null) {
            if (startMicros == Event.UNKNOWN_TIME || event.timestampMicros < startMicros) {
                startMicros = event.timestampMicros;
            }
            if (endMicros == Event.UNKNOWN_TIME || event.endMicros() > endMicros) {
                endMicros = event.endMicros();
            }
        }
    }

    boolean hasWindow() {
        return startMicros != Event.UNKNOWN_TIME;
    }

    int count(Event.Kind kind) {
        int n = 0;
        for (Event event : events) {
            if (event.kind == kind) {
                n++;
            }
        }
        return n;
    }

    /** Groups events by trace id; traces sorted by their earliest event, events without a time last. */
    static List<Trace> group(List<Event> events) {
        Map<String, Trace> byId = new LinkedHashMap<String, Trace>();
        for (Event event : events) {
            String key = event.traceId == null ? "" : event.traceId;
            Trace trace = byId.get(key);
            if (trace == null) {
                trace = new Trace(event.traceId);
                byId.put(key, trace);
            }
            trace.add(event);
        }
        List<Trace> traces = new ArrayList<Trace>(byId.values());
        Collections.sort(traces, TRACE_BY_START);
        return traces;
    }
}
