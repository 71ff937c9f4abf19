package dev.apmagent.trace;

/** Outcome of a transaction or span as intake v2 names it. */
public enum Outcome {
    UNKNOWN("unknown"),
    SUCCESS("success"),
    FAILURE("failure");

    private final String jsonValue;

    Outcome(String jsonValue) {
        this.jsonValue = jsonValue;
    }

    /** The value written to the {@code outcome} field. */
    public String jsonValue() {
        return jsonValue;
    }
}
