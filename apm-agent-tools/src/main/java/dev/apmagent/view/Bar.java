package dev.apmagent.view;

/**
 * One row's timeline: {@code |   ████      |}, the event's interval scaled onto a fixed number of cells spanning the
 * trace. Every interval gets at least one cell, so that sub-cell spans stay visible.
 */
final class Bar {

    /** Cells between the two '|'. */
    static final int WIDTH = 40;
    static final char BLOCK = '\u2588';
    static final char HASH = '#';
    static final char ERROR_MARK = '!';

    private Bar() {
    }

    /**
     * The cells for [start, end] inside the window [windowStart, windowEnd] (any unit, the same for all four).
     * A window of zero length puts everything at the first cell.
     */
    static String interval(double windowStart, double windowEnd, double start, double end, int width, char fill) {
        int first = cell(windowStart, windowEnd, start, width, false);
        int last = Math.max(first + 1, Math.min(width, cell(windowStart, windowEnd, end, width, true)));
        StringBuilder sb = new StringBuilder(width + 2).append('|');
        for (int i = 0; i < width; i++) {
            sb.append(i >= first && i < last ? fill : ' ');
        }
        return sb.append('|').toString();
    }

    /** A single mark at {@code at}, for errors, which have a time but no duration. */
    static String point(double windowStart, double windowEnd, double at, int width, char mark) {
        int cell = cell(windowStart, windowEnd, at, width, false);
        StringBuilder sb = new StringBuilder(width + 2).append('|');
        for (int i = 0; i < width; i++) {
            sb.append(i == cell ? mark : ' ');
        }
        return sb.append('|').toString();
    }

    /** The row of an event whose time is unknown. */
    static String empty(int width) {
        StringBuilder sb = new StringBuilder(width + 2).append('|');
        for (int i = 0; i < width; i++) {
            sb.append(' ');
        }
        return sb.append('|').toString();
    }

    /** The cell a time falls into: rounded down for a start, up for an end; clamped to [0, width - 1] or [1, width]. */
    private static int cell(double windowStart, double windowEnd, double at, int width, boolean roundUp) {
        double window = windowEnd - windowStart;
        double scaled = window > 0 ? (at - windowStart) / window * width : 0;
        // a tolerance, so that a span ending exactly on a cell border does not spill into the next cell
        int cell = roundUp ? (int) Math.ceil(scaled - 1e-9) : (int) Math.floor(scaled + 1e-9);
        return roundUp ? Math.max(1, Math.min(width, cell)) : Math.max(0, Math.min(width - 1, cell));
    }
}
