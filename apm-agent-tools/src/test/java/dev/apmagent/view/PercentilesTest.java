package dev.apmagent.view;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PercentilesTest {

    @ParameterizedTest(name = "p{1} of [{0}] = {2}")
    @CsvSource(delimiter = ';', value = {
            // values (or a..b for a range); p; nearest-rank percentile
            "7;         50;   7",
            "7;         99;   7",
            "1 2;       50;   1",
            "1 2;       51;   2",
            "1 2 3 4;   50;   2",
            "1 2 3 4;   75;   3",
            "1 2 3 4;   99;   4",
            "5 1 4 2 3; 50;   3",
            "1..10;     50;   5",
            "1..10;     90;   9",
            "1..10;     99;   10",
            "1..100;    50;   50",
            "1..100;    99;   99",
            "1..100;    100;  100",
            "1..100;    0.5;  1",
            "1..1000;   99.9; 999",
            "1..1000;   99;   990",
            "9.874 9.644 9.611 9.593 9.86; 50; 9.644",
            "9.874 9.644 9.611 9.593 9.86; 99; 9.874",
            "3 3 3 1;   50;   3",
    })
    void nearestRank(String values, double p, double expected) {
        assertEquals(expected, Percentiles.of(p, parse(values)), 0.0);
    }

    @Test
    void noValuesHaveNoPercentile() {
        assertTrue(Double.isNaN(Percentiles.of(50)));
    }

    @Test
    void onlyTheFirstCountValuesCountAndTheInputIsNotReordered() {
        double[] values = {30, 10, 20, 1000, 1000};
        Percentiles percentiles = new Percentiles(values, 3);
        assertEquals(3, percentiles.count());
        assertEquals(20, percentiles.percentile(50), 0.0);
        assertEquals(30, percentiles.percentile(99), 0.0);
        assertEquals("[30.0, 10.0, 20.0, 1000.0, 1000.0]", Arrays.toString(values));
    }

    @ParameterizedTest
    @CsvSource({"0", "-1", "100.5", "NaN"})
    void percentileOutsideZeroToHundredIsRejected(double p) {
        assertThrows(IllegalArgumentException.class, () -> Percentiles.of(p, 1, 2, 3));
    }

    private static double[] parse(String values) {
        String trimmed = values.trim();
        if (trimmed.contains("..")) {
            int from = Integer.parseInt(trimmed.substring(0, trimmed.indexOf("..")));
            int to = Integer.parseInt(trimmed.substring(trimmed.indexOf("..") + 2));
            double[] range = new double[to - from + 1];
            for (int i = 0; i < range.length; i++) {
                range[i] = from + i;
            }
            return range;
        }
        return Arrays.stream(trimmed.split(" +")).mapToDouble(Double::parseDouble).toArray();
    }
}
