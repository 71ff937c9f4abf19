package dev.apmagent.plugin;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plugins' periodic work on the agent's one scheduler thread. */
class AgentSchedulerTest {

    @AfterEach
    void stop() throws InterruptedException {
        AgentScheduler.stop();
    }

    /** Tests (and an uninstall followed by a new start) stop the thread; a plugin schedules its task only once. */
    @Test
    void aTaskRunsOnTheSchedulerThreadAndKeepsRunningAfterAStopAndAStart() throws InterruptedException {
        final AtomicInteger runs = new AtomicInteger();
        final List<String> threads = new CopyOnWriteArrayList<String>();
        AgentScheduler.start();
        AgentScheduler.Task task = AgentScheduler.schedule(new Runnable() {
            @Override
            public void run() {
                threads.add(Thread.currentThread().getName());
                runs.incrementAndGet();
            }
        }, 1, PluginHealth.of("scheduler-test"));
        try {
            awaitRuns(runs, 2);
            AgentScheduler.stop();
            int beforeRestart = runs.get();
            AgentScheduler.start();
            awaitRuns(runs, beforeRestart + 2);
        } finally {
            task.cancel();
        }
        for (String thread : threads) {
            assertEquals("apm-agent-scheduler", thread);
        }
    }

    @Test
    void aTaskThatThrowsIsCountedAndRunsAgain() throws InterruptedException {
        final AtomicInteger runs = new AtomicInteger();
        PluginHealth health = PluginHealth.of("scheduler-test-failing");
        AgentScheduler.start();
        AgentScheduler.Task task = AgentScheduler.schedule(new Runnable() {
            @Override
            public void run() {
                runs.incrementAndGet();
                throw new IllegalStateException("failing on purpose");
            }
        }, 1, health);
        try {
            awaitRuns(runs, 3);
        } finally {
            task.cancel();
        }
        assertTrue(health.failures() >= 2, "failures counted: " + health.failures());
    }

    private static void awaitRuns(AtomicInteger runs, int atLeast) throws InterruptedException {
        for (int i = 0; i < 500 && runs.get() < atLeast; i++) {
            Thread.sleep(10);
        }
        assertTrue(runs.get() >= atLeast, "runs: " + runs.get() + ", expected at least " + atLeast);
    }
}
