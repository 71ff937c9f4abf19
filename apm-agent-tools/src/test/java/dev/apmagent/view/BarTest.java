package dev.apmagent.view;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BarTest {

    @ParameterizedTest(name = "[{0}, {1}] in [0, 100] -> {2}")
    @CsvSource(delimiter = ';', value = {
            // start; end; cells (width 10, window 0..100)
            "0;    100;  '|##########|'",
            "0;    50;   '|#####     |'",
            "50;   100;  '|     #####|'",
            "10;   40;   '| ###      |'",
            "15;   25;   '| ##       |'",
            "12;   13;   '| #        |'",   // shorter than a cell: still one cell
            "100;  100;  '|         #|'",   // zero length at the very end
            "0;    0;    '|#         |'",
            "-50;  20;   '|##        |'",   // before the window: clamped
            "90;   250;  '|         #|'",   // past the window: clamped
    })
    void intervalIsScaledOntoTheCells(double start, double end, String expected) {
        assertEquals(expected, Bar.interval(0, 100, start, end, 10, '#'));
    }

    @ParameterizedTest(name = "point {0} in [0, 100] -> {1}")
    @CsvSource(delimiter = ';', value = {
            "0;    '|!         |'",
            "9.9;  '|!         |'",
            "10;   '| !        |'",
            "55;   '|     !    |'",
            "100;  '|         !|'",
            "400;  '|         !|'",
    })
    void pointMarksOneCell(double at, String expected) {
        assertEquals(expected, Bar.point(0, 100, at, 10, '!'));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "5; 5; '|#   |'",
            "5; 9; '|#   |'",
    })
    void emptyWindowPutsEverythingAtTheStart(double start, double end, String expected) {
        assertEquals(expected, Bar.interval(5, 5, start, end, 4, '#'));
    }

    @ParameterizedTest
    @CsvSource({"1", "4", "40"})
    void unknownTimeIsAnEmptyRowOfTheWidth(int width) {
        String bar = Bar.empty(width);
        assertEquals(width + 2, bar.length());
        assertEquals("|" + " ".repeat(width) + "|", bar);
    }
}
