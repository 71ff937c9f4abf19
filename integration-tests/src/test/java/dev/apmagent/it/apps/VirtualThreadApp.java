package dev.apmagent.it.apps;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Java 21+, under the agent: starts a virtual thread inside a transaction and prints what the virtual thread saw
 * active before and after it parked, and how many runs the agent activated a context for (its {@code tasks_propagated}
 * counter). One start must be one activation: the virtual thread's own. Were the carriers' pool not left out, the
 * start's continuation would be captured too, and activated on a carrier. The agent's classes are reached reflectively,
 * as the agent jar (not this test's class path) carries them.
 */
public final class VirtualThreadApp {

    private VirtualThreadApp() {
    }

    public static void main(String[] args) throws Exception {
        Class<?> globalTracer = Class.forName("dev.apmagent.trace.GlobalTracer");
        Object tracer = globalTracer.getMethod("get").invoke(null);
        Class<?> tracerType = tracer.getClass();
        Class<?> event = Class.forName("dev.apmagent.trace.AbstractSpan");
        Method active = tracerType.getMethod("active");
        Object transaction = tracerType.getMethod("startRootTransaction").invoke(tracer);
        tracerType.getMethod("activate", event).invoke(tracer, transaction);

        Field propagatedField = Class.forName("dev.apmagent.plugin.concurrent.TaskContext").getDeclaredField("propagated");
        propagatedField.setAccessible(true);
        Object propagated = propagatedField.get(null);
        Method sum = propagated.getClass().getMethod("sum");
        long before = (Long) sum.invoke(propagated);

        Object[] seen = new Object[2];
        Runnable task = () -> {
            try {
                seen[0] = active.invoke(tracer);
                Thread.sleep(20);
                seen[1] = active.invoke(tracer);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Thread thread = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class).invoke(builder, task);
        thread.join();
        long activations = (Long) sum.invoke(propagated) - before;

        tracerType.getMethod("deactivate", event).invoke(tracer, transaction);
        transaction.getClass().getMethod("end").invoke(transaction);
        System.out.println("before park " + (seen[0] == transaction) + ", after park " + (seen[1] == transaction)
                + ", activations " + activations);
    }
}
