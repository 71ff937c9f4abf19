package dev.apmagent.report;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BackoffTest {

    @ParameterizedTest(name = "{0} failures, jitter {1} -> {2} ms")
    @CsvSource({
        "0, 0, 0", "1, 0, 1000", "2, 0, 4000", "3, 0, 9000", "4, 0, 16000", "5, 0, 25000", "6, 0, 36000", "7, 0, 36000",
        "1000, 0, 36000", "6, 1, 39600", "6, -1, 32400", "1, 1, 1100", "1, -1, 900", "6, 5, 39600", "-3, 0, 0"})
    void growsQuadraticallyToAboutThirtySixSecondsWithTenPercentJitter(int failures, double jitter, long expected) {
        assertEquals(expected, Backoff.delayMillis(failures, 1000, jitter));
    }
}
