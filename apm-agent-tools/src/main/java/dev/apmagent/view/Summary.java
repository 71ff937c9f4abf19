package dev.apmagent.view;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The file at a glance: event counts, transactions per name (count, exact p50/p99 duration, errors), spans per
 * type/subtype (count, total time), the agent's own {@code agent.events.*} samples as reported, and what was skipped.
 */
final class Summary {

    static final int KEY_WIDTH = 44;
    static final int NUMBER_WIDTH = 10;

    /** Transactions of one name. */
    static final class TransactionGroup {
        final String name;
        double[] durations = new double[8];
        int withDuration;
        int count;
        int errors;

        TransactionGroup(String name) {
            this.name = name;
        }

        void add(Event transaction) {
            count++;
            if (transaction.hasDuration()) {
                if (withDuration == durations.length) {
                    double[] bigger = new double[durations.length * 2];
                    System.arraycopy(durations, 0, bigger, 0, withDuration);
                    durations = bigger;
                }
                durations[withDuration++] = transaction.durationMillis;
            }
        }
    }

    /** Spans of one type/subtype. */
    static final class SpanGroup {
        final String key;
        int count;
        double totalMillis;

        SpanGroup(String key) {
            this.key = key;
        }
    }

    private final EventLog log;
    final Map<String, TransactionGroup> transactions = new LinkedHashMap<String, TransactionGroup>();
    final Map<String, SpanGroup> spans = new LinkedHashMap<String, SpanGroup>();
    /** Errors that name no transaction and whose transaction_id is not in the file. */
    int errorsWithoutTransaction;

    Summary(EventLog log) {
        this.log = log;
        Map<String, String> transactionNames = new HashMap<String, String>();
        for (Event event : log.events) {
            if (event.kind == Event.Kind.TRANSACTION) {
                String name = Format.orUnknown(event.name);
                if (event.id != null && !transactionNames.containsKey(event.id)) {
                    transactionNames.put(event.id, name);
                }
                TransactionGroup group = transactions.get(name);
                if (group == null) {
                    group = new TransactionGroup(name);
                    transactions.put(name, group);
                }
                group.add(event);
            } else if (event.kind == Event.Kind.SPAN) {
                String key = event.type == null ? "?" : event.subtype == null ? event.type
                        : event.type + "/" + event.subtype;
                SpanGroup group = spans.get(key);
                if (group == null) {
                    group = new SpanGroup(key);
                    spans.put(key, group);
                }
                group.count++;
                if (event.hasDuration()) {
                    group.totalMillis += event.durationMillis;
                }
            }
        }
        for (Event event : log.events) {
            if (event.kind != Event.Kind.ERROR) {
                continue;
            }
            String name = event.transactionId == null ? null : transactionNames.get(event.transactionId);
            if (name == null) {
                name = event.transactionName;
            }
            TransactionGroup group = name == null ? null : transactions.get(name);
            if (group == null) {
                errorsWithoutTransaction++;
            } else {
                group.errors++;
            }
        }
    }

    void print(PrintStream out) {
        out.println("summary");
        out.println("  " + Format.count(log.lines, "line") + ": " + Format.count(log.metadataLines, "metadata line")
                + ", " + Format.count(log.transactions, "transaction") + ", " + Format.count(log.spans, "span")
                + ", " + Format.count(log.errors, "error") + ", " + Format.count(log.metricsets, "metricset"));
        if (!log.services.isEmpty()) {
            StringBuilder sb = new StringBuilder("  services: ");
            for (int i = 0; i < log.services.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(log.services.get(i));
            }
            out.println(sb);
        }

        out.println();
        out.println(columns("transactions (by name)", "count", "p50 ms", "p99 ms", "errors"));
        List<TransactionGroup> groups = new ArrayList<TransactionGroup>(transactions.values());
        Collections.sort(groups, new Comparator<TransactionGroup>() {
            @Override
            public int compare(TransactionGroup a, TransactionGroup b) {
                return a.count != b.count ? (a.count > b.count ? -1 : 1) : a.name.compareTo(b.name);
            }
        });
        for (TransactionGroup group : groups) {
            Percentiles percentiles = new Percentiles(group.durations, group.withDuration);
            out.println(columns("  " + group.name, Integer.toString(group.count), millis(percentiles.percentile(50)),
                    millis(percentiles.percentile(99)), Integer.toString(group.errors)));
        }
        if (groups.isEmpty()) {
            out.println("  (none)");
        }
        if (errorsWithoutTransaction > 0) {
            out.println("  " + Format.count(errorsWithoutTransaction, "error") + " without a transaction in this file");
        }

        out.println();
        out.println(columns("spans (by type/subtype)", "count", "total ms"));
        List<SpanGroup> spanGroups = new ArrayList<SpanGroup>(spans.values());
        Collections.sort(spanGroups, new Comparator<SpanGroup>() {
            @Override
            public int compare(SpanGroup a, SpanGroup b) {
                int byTime = Double.compare(b.totalMillis, a.totalMillis);
                return byTime != 0 ? byTime : a.key.compareTo(b.key);
            }
        });
        for (SpanGroup group : spanGroups) {
            out.println(columns("  " + group.key, Integer.toString(group.count), millis(group.totalMillis)));
        }
        if (spanGroups.isEmpty()) {
            out.println("  (none)");
        }

        out.println();
        if (log.health.isEmpty()) {
            out.println("agent health: no agent.events.* samples in this file");
        } else {
            out.println(columns("agent health (agent.events.* as reported)", "reports", "sum", "last"));
            for (EventLog.HealthSample sample : log.health.values()) {
                out.println(columns("  " + sample.name, Integer.toString(sample.reports), Format.number(sample.sum),
                        Format.number(sample.last)));
            }
        }

        if (log.unknownEvents() > 0) {
            StringBuilder sb = new StringBuilder(Format.count(log.unknownEvents(), "event"))
                    .append(" of unknown type ignored (");
            boolean first = true;
            for (Map.Entry<String, Integer> type : log.unknownTypes.entrySet()) {
                sb.append(first ? "" : ", ").append(type.getKey()).append(": ").append(type.getValue());
                first = false;
            }
            out.println(sb.append(')'));
        }
        if (log.malformedLines > 0) {
            out.println(log.malformedLines + " malformed line" + (log.malformedLines == 1 ? "" : "s")
                    + " skipped (first at " + log.firstMalformed + ")");
        }
    }

    private static String millis(double millis) {
        return Double.isNaN(millis) ? "?" : Format.decimal(millis);
    }

    private static String columns(String key, String... numbers) {
        StringBuilder sb = new StringBuilder(Format.fit(key, KEY_WIDTH));
        for (String number : numbers) {
            sb.append(Format.padLeft(number, NUMBER_WIDTH));
        }
        return sb.toString();
    }
}
