package org.apache.tomcat.util.threads;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Stands in for Tomcat's own pool as Tomcat 8.5 to 9.0.6x and 10.0 define it (a subclass of the JDK's, under this
 * name), to which the connector hands its socket work: the agent must not carry a request's context into it.
 */
public class ThreadPoolExecutor extends java.util.concurrent.ThreadPoolExecutor {

    public ThreadPoolExecutor(int core, int max, long keepAlive, TimeUnit unit, BlockingQueue<Runnable> queue) {
        super(core, max, keepAlive, unit, queue);
    }

    @Override
    public void execute(Runnable command) {
        super.execute(command);
    }
}
