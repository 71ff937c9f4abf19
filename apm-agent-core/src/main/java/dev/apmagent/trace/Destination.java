package dev.apmagent.trace;

/** {@code context.destination} of an exit span. */
public final class Destination {

    private CharSequence address;
    private int port = -1;
    private CharSequence serviceResource;

    public boolean hasContent() {
        return address != null || port != -1 || serviceResource != null;
    }

    public CharSequence address() {
        return address;
    }

    /** -1 when none. */
    public int port() {
        return port;
    }

    public void setAddress(CharSequence address, int port) {
        this.address = address;
        this.port = port;
    }

    /** {@code destination.service.resource}; may be null. */
    public CharSequence serviceResource() {
        return serviceResource;
    }

    public void setServiceResource(CharSequence serviceResource) {
        this.serviceResource = serviceResource;
    }

    public void reset() {
        address = null;
        port = -1;
        serviceResource = null;
    }
}
