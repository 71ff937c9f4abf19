package dev.apmagent.view;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints one trace as an indented tree: transactions at the top, spans nested under their parent_id, errors under the
 * span or transaction they belong to, children in start order. Events whose parent is not in the file (and a
 * transaction's missing parent is normal: it continues a trace from another service, so it is a root) are printed
 * under an orphans marker rather than dropped. Events that name no parent at all are roots.
 */
final class Waterfall {

    static final int NAME_WIDTH = 40;
    static final int TYPE_WIDTH = 24;
    static final int DURATION_WIDTH = 12;
    static final int OUTCOME_WIDTH = 8;
    /** An error row has no type, duration or outcome: its text runs over those columns. */
    static final int TEXT_WIDTH = NAME_WIDTH + 1 + TYPE_WIDTH + 1 + DURATION_WIDTH + 2 + OUTCOME_WIDTH;
    static final String ORPHANS_MARKER = "[orphans: parent not in this file]";
    /** Deeper levels are printed at this indentation, so that the name column keeps some room. */
    private static final int MAX_INDENT_LEVEL = 15;

    private final PrintStream out;
    private final char fill;

    Waterfall(PrintStream out, char fill) {
        this.out = out;
        this.fill = fill;
    }

    void print(Trace trace) {
        out.println(header(trace));
        out.println(row("name", "type", "duration", "outcome", "timeline"));

        Map<String, Event> byId = new HashMap<String, Event>();
        for (Event event : trace.events) {
            if (event.kind != Event.Kind.ERROR && event.id != null && !byId.containsKey(event.id)) {
                byId.put(event.id, event);
            }
        }
        Map<Event, List<Event>> children = new IdentityHashMap<Event, List<Event>>();
        List<Event> roots = new ArrayList<Event>();
        List<Event> orphans = new ArrayList<Event>();
        for (Event event : trace.events) {
            String parentId = event.parentId;
            if (parentId == null && event.kind == Event.Kind.ERROR) {
                parentId = event.transactionId;
            }
            Event parent = parentId == null ? null : byId.get(parentId);
            if (parent != null && parent != event) {
                List<Event> list = children.get(parent);
                if (list == null) {
                    list = new ArrayList<Event>();
                    children.put(parent, list);
                }
                list.add(event);
            } else if (parentId == null || event.kind == Event.Kind.TRANSACTION) {
                // no parent at all (an error outside any transaction) or a transaction continuing another service
                roots.add(event);
            } else {
                orphans.add(event);
            }
        }
        Collections.sort(roots, Trace.BY_START);
        Collections.sort(orphans, Trace.BY_START);
        for (List<Event> list : children.values()) {
            Collections.sort(list, Trace.BY_START);
        }

        Map<Event, Boolean> printed = new IdentityHashMap<Event, Boolean>();
        for (Event root : roots) {
            printTree(trace, root, 0, children, printed);
        }
        // events on a parent cycle are reachable from neither a root nor an orphan: print them as orphans too
        if (printed.size() < trace.events.size()) {
            out.println(ORPHANS_MARKER);
            for (Event orphan : orphans) {
                printTree(trace, orphan, 1, children, printed);
            }
            List<Event> rest = new ArrayList<Event>(trace.events);
            Collections.sort(rest, Trace.BY_START);
            for (Event event : rest) {
                if (!printed.containsKey(event)) {
                    printTree(trace, event, 1, children, printed);
                }
            }
        }
    }

    /** Depth-first with an explicit stack: a file may nest spans deeper than the call stack would allow. */
    private void printTree(Trace trace, Event top, int depth, Map<Event, List<Event>> children,
                           Map<Event, Boolean> printed) {
        Deque<Event> events = new ArrayDeque<Event>();
        Deque<Integer> levels = new ArrayDeque<Integer>();
        events.push(top);
        levels.push(depth);
        while (!events.isEmpty()) {
            Event event = events.pop();
            int level = levels.pop();
            if (printed.put(event, Boolean.TRUE) != null) {
                continue;
            }
            out.println(line(trace, event, level));
            List<Event> list = children.get(event);
            if (list != null) {
                for (int i = list.size() - 1; i >= 0; i--) {
                    events.push(list.get(i));
                    levels.push(level + 1);
                }
            }
        }
    }

    private static String header(Trace trace) {
        StringBuilder sb = new StringBuilder("trace ").append(trace.traceId == null ? "? (events without a trace_id)"
                : trace.traceId);
        if (trace.hasWindow()) {
            sb.append("  ").append(Format.instant(trace.startMicros)).append("  ")
                    .append(Format.millis((trace.endMicros - trace.startMicros) / 1000.0));
        }
        sb.append("  ").append(Format.count(trace.count(Event.Kind.TRANSACTION), "transaction"))
                .append(", ").append(Format.count(trace.count(Event.Kind.SPAN), "span"))
                .append(", ").append(Format.count(trace.count(Event.Kind.ERROR), "error"));
        return sb.toString();
    }

    private String line(Trace trace, Event event, int level) {
        StringBuilder indent = new StringBuilder();
        for (int i = 0; i < Math.min(level, MAX_INDENT_LEVEL); i++) {
            indent.append("  ");
        }
        if (event.kind == Event.Kind.ERROR) {
            String bar = event.hasTimestamp() && trace.hasWindow()
                    ? Bar.point(trace.startMicros, trace.endMicros, event.timestampMicros, Bar.WIDTH, Bar.ERROR_MARK)
                    : Bar.empty(Bar.WIDTH);
            return Format.fit(indent + "! error " + Format.orUnknown(event.name), TEXT_WIDTH) + ' ' + bar;
        }
        String bar = event.hasTimestamp() && trace.hasWindow()
                ? Bar.interval(trace.startMicros, trace.endMicros, event.timestampMicros, event.endMicros(),
                Bar.WIDTH, fill)
                : Bar.empty(Bar.WIDTH);
        return row(indent + Format.orUnknown(event.name), event.typeLabel(),
                event.hasDuration() ? Format.millis(event.durationMillis) : "?", Format.orUnknown(event.outcome), bar);
    }

    static String row(String name, String type, String duration, String outcome, String bar) {
        return Format.fit(name, NAME_WIDTH) + ' ' + Format.fit(type, TYPE_WIDTH) + ' '
                + Format.padLeft(duration, DURATION_WIDTH) + "  " + Format.fit(outcome, OUTCOME_WIDTH) + ' ' + bar;
    }
}
