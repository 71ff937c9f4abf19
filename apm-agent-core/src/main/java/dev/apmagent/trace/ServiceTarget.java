package dev.apmagent.trace;

/** {@code context.service.target} of an exit span. */
public final class ServiceTarget {

    private CharSequence type;
    private CharSequence name;
    private final StringBuilder ownName = new StringBuilder(32);

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

    /**
     * Sets {@code type} and gives the name as a builder this object owns (cleared), for a name made of parts
     * ({@code host:port}) without allocating; valid until {@link #reset()}.
     */
    public StringBuilder nameBuilder(CharSequence type) {
        this.type = type;
        ownName.setLength(0);
        this.name = ownName;
        return ownName;
    }

    public void reset() {
        Texts.clear(ownName, 1024);
        type = null;
        name = null;
    }
}
