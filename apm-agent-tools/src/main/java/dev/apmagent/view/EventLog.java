package dev.apmagent.view;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything the viewer learnt from one event file: the kept events and the file's counts. */
final class EventLog {

    /** How many distinct services the header lists before it stops adding them. */
    static final int MAX_SERVICES = 10;

    /** One {@code agent.events.*} sample name over all the health metricsets of the file. */
    static final class HealthSample {
        final String name;
        int reports;
        double sum;
        double last;

        HealthSample(String name) {
            this.name = name;
        }
    }

    final List<Event> events = new ArrayList<Event>();
    final List<String> services = new ArrayList<String>();
    final Map<String, HealthSample> health = new LinkedHashMap<String, HealthSample>();
    final Map<String, Integer> unknownTypes = new LinkedHashMap<String, Integer>();
    long lines;
    long blankLines;
    long metadataLines;
    long transactions;
    long spans;
    long errors;
    long metricsets;
    long malformedLines;
    /** "line N: reason" of the first malformed line, or null. */
    String firstMalformed;

    void addService(String service) {
        if (services.size() < MAX_SERVICES && !services.contains(service)) {
            services.add(service);
        }
    }

    void addHealthSample(String name, double value) {
        HealthSample sample = health.get(name);
        if (sample == null) {
            sample = new HealthSample(name);
            health.put(name, sample);
        }
        sample.reports++;
        sample.sum += value;
        sample.last = value;
    }

    void addUnknown(String type) {
        Integer n = unknownTypes.get(type);
        unknownTypes.put(type, n == null ? 1 : n + 1);
    }

    long unknownEvents() {
        long n = 0;
        for (Integer count : unknownTypes.values()) {
            n += count;
        }
        return n;
    }

    void malformed(long line, String reason) {
        if (malformedLines++ == 0) {
            firstMalformed = "line " + line + ": " + reason;
        }
    }
}
