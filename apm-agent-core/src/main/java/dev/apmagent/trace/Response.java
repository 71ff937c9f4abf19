package dev.apmagent.trace;

/** The HTTP response of a transaction ({@code context.response}). */
public final class Response {

    private int statusCode = -1;
    private boolean finished;
    private boolean headersSent;
    private boolean finishedSet;
    private final KeyValues headers = new KeyValues();

    public boolean hasContent() {
        return statusCode != -1 || finishedSet || !headers.isEmpty();
    }

    /** -1 when none. */
    public int statusCode() {
        return statusCode;
    }

    public void setStatusCode(int statusCode) {
        this.statusCode = statusCode;
    }

    public boolean finished() {
        return finished;
    }

    public boolean headersSent() {
        return headersSent;
    }

    public void setFinished(boolean finished, boolean headersSent) {
        this.finished = finished;
        this.headersSent = headersSent;
        this.finishedSet = true;
    }

    public KeyValues headers() {
        return headers;
    }

    public void reset() {
        statusCode = -1;
        finished = false;
        headersSent = false;
        finishedSet = false;
        headers.reset();
    }
}
