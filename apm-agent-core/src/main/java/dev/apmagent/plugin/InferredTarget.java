package dev.apmagent.plugin;

/**
 * A reusable holder for what {@link ServiceTargets#infer} derives for an exit span: {@code service.target.type},
 * {@code service.target.name} (absent when {@link #hasName()} is false) and the legacy
 * {@code destination.service.resource}. Not thread-safe; owned by one span or one thread.
 */
public final class InferredTarget {

    private final StringBuilder name = new StringBuilder(32);
    private final StringBuilder resource = new StringBuilder(48);
    private String type;
    private boolean hasName;
    private boolean present;

    /** Forgets everything; {@link #isPresent()} is then false. */
    public void reset() {
        type = null;
        name.setLength(0);
        resource.setLength(0);
        hasName = false;
        present = false;
    }

    /** Whether a target was derived (false for non-exit spans). */
    public boolean isPresent() {
        return present;
    }

    /** {@code service.target.type}, or null when not present. */
    public String type() {
        return type;
    }

    /** Whether {@code service.target.name} is set. */
    public boolean hasName() {
        return hasName;
    }

    /** {@code service.target.name}; empty when {@link #hasName()} is false. Valid until the next reset. */
    public CharSequence name() {
        return name;
    }

    /** {@code destination.service.resource}; empty when not present. Valid until the next reset. */
    public CharSequence resource() {
        return resource;
    }

    void set(String type, CharSequence name, boolean nameOnlyResource) {
        this.type = type;
        this.present = true;
        if (name != null && name.length() > 0) {
            this.hasName = true;
            this.name.append(name);
        }
        if (!hasName) {
            resource.append(type);
        } else if (nameOnlyResource) {
            resource.append(name);
        } else {
            resource.append(type).append('/').append(name);
        }
    }

    @Override
    public String toString() {
        return present ? "InferredTarget{type=" + type + ", name=" + (hasName ? name : null) + ", resource=" + resource
            + "}" : "InferredTarget{absent}";
    }
}
