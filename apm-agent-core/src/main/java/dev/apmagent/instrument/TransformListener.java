package dev.apmagent.instrument;

import dev.apmagent.log.AgentLog;
import dev.apmagent.log.Logger;
import dev.apmagent.plugin.Instrumentation;

import java.util.concurrent.atomic.AtomicLong;

/** Counts and logs what the agent transformed, and every failure to transform, without ever failing class loading. */
final class TransformListener {

    private static final Logger logger = AgentLog.get(TransformListener.class);

    private final AtomicLong transformed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    void onTransformation(String typeName, ClassLoader loader, boolean loaded) {
        transformed.incrementAndGet();
        logger.debug("instrumented {} (loaded before: {}, loader: {})", typeName, loaded, loader);
    }

    void onError(String typeName, ClassLoader loader, boolean loaded, Throwable throwable) {
        errors.incrementAndGet();
        logger.debug("could not instrument {}: {}", typeName, String.valueOf(throwable));
    }

    void onMatcherError(Instrumentation instrumentation, String typeName, Throwable t) {
        errors.incrementAndGet();
        logger.debug("matcher of {} failed on {}: {}", instrumentation.name(), typeName, String.valueOf(t));
    }

    long transformedCount() {
        return transformed.get();
    }

    long errorCount() {
        return errors.get();
    }
}
