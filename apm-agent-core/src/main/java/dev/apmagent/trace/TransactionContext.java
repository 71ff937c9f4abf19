package dev.apmagent.trace;

/** The {@code context} of a transaction; only filled for sampled transactions. */
public final class TransactionContext {

    private final Request request = new Request();
    private final Response response = new Response();

    public Request request() {
        return request;
    }

    public Response response() {
        return response;
    }

    /** False when nothing was set: the reporter then omits {@code context}. */
    public boolean hasContent() {
        return request.hasContent() || response.hasContent();
    }

    public void reset() {
        request.reset();
        response.reset();
    }
}
