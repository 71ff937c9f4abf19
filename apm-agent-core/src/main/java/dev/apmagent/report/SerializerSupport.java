package dev.apmagent.report;

import dev.apmagent.trace.KeyValues;
import dev.apmagent.trace.Outcome;

/** Pieces shared by the event serializers: outcome constants and name/value maps. */
final class SerializerSupport {

    private static final byte[] SUCCESS = JsonHelper.ascii("\"success\"");
    private static final byte[] FAILURE = JsonHelper.ascii("\"failure\"");
    private static final byte[] UNKNOWN = JsonHelper.ascii("\"unknown\"");

    private SerializerSupport() {
    }

    static byte[] outcome(Outcome outcome) {
        if (outcome == Outcome.SUCCESS) {
            return SUCCESS;
        }
        if (outcome == Outcome.FAILURE) {
            return FAILURE;
        }
        return UNKNOWN;
    }

    /**
     * Writes a {@link KeyValues} as a JSON object. Repeated names (a header sent twice) become one member: an array of
     * the values when {@code multiValues}, else the first value. Quadratic in the (bounded, small) size, allocation-free.
     */
    static void keyValues(KeyValues kv, JsonHelper h, boolean multiValues) {
        int n = kv.size();
        h.startObject();
        for (int i = 0; i < n; i++) {
            String key = kv.key(i);
            if (key == null || seenBefore(kv, i, key)) {
                continue;
            }
            int more = 0;
            for (int j = i + 1; j < n; j++) {
                if (key.equals(kv.key(j))) {
                    more++;
                }
            }
            h.fieldName(key);
            if (more == 0 || !multiValues) {
                h.string(nonNull(kv.value(i)));
            } else {
                h.startArray();
                h.string(nonNull(kv.value(i)));
                for (int j = i + 1; j < n; j++) {
                    if (key.equals(kv.key(j))) {
                        h.string(nonNull(kv.value(j)));
                    }
                }
                h.endArray();
            }
        }
        h.endObject();
    }

    private static CharSequence nonNull(CharSequence v) {
        return v == null ? "" : v;
    }

    private static boolean seenBefore(KeyValues kv, int i, String key) {
        for (int j = 0; j < i; j++) {
            if (key.equals(kv.key(j))) {
                return true;
            }
        }
        return false;
    }
}
