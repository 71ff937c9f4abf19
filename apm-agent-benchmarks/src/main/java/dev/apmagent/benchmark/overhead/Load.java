package dev.apmagent.benchmark.overhead;

/**
 * What drives the application during a run: the harness cuts a run into windows (warm-up windows, then one measured
 * window) and reads the application's CPU time around the measured one.
 */
interface Load extends AutoCloseable {

    /** Keeps the load going for {@code seconds} and returns what happened in that time. */
    LoadWindow run(double seconds) throws Exception;

    /** Stops the load and waits for the requests in flight. */
    @Override
    void close() throws Exception;
}
