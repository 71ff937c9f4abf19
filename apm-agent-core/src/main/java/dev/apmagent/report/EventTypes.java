package dev.apmagent.report;

/** The kinds of events the pipeline carries, as small ints so counters and buffer headers can index arrays by them. */
public final class EventTypes {

    public static final int TRANSACTION = 0;
    public static final int SPAN = 1;
    public static final int ERROR = 2;
    public static final int METRICSET = 3;
    public static final int COUNT = 4;

    private static final String[] NAMES = {"transaction", "span", "error", "metricset"};

    private EventTypes() {
    }

    /** The intake name of the type ("transaction", "span", "error", "metricset"). */
    public static String name(int type) {
        return NAMES[type];
    }
}
