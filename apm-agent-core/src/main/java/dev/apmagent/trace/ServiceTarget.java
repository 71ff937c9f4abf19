package dev.apmagent.trace;

/** {@code context.service.target} of an exit span. */
public final class ServiceTarget {

    private CharSequence type;
    private CharSequence name;

    public boolean hasContent() {
        return type != null || name != null;
    }

    public CharSequence type() {
        return type;
    }

    public CharSequence name() {
        return name;
    }

    public void set(CharSequence type, CharSequence name) {
        this.type = type;
        this.name = name;
    }

    public void reset() {
        type = null;
        name = null;
    }
}
