package dev.apmagent.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SerializerBuildsComparisonTest {

    /** Two builds (here the same class path twice, each in its own loader): a time per event type and round, positive over the rounds. */
    @Test
    void comparesEveryEventTypeOfEveryBuild() throws Exception {
        String classPath = System.getProperty("java.class.path");
        double[][][] nanos = SerializerBuildsComparison.compare(new String[] {classPath, classPath}, 2, 1000);
        assertEquals(2, nanos.length);
        for (double[][] build : nanos) {
            assertEquals(SerializerBuildsComparison.EVENT_TYPES.length, build.length);
            for (double[] rounds : build) {
                assertEquals(2, rounds.length);
                assertTrue(rounds[0] + rounds[1] > 0, "CPU ns per event " + rounds[0] + ", " + rounds[1]);
            }
        }
    }
}
