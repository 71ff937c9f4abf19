package dev.apmagent.view;

import java.util.Arrays;

/**
 * Exact percentiles by the nearest-rank method: the p-th percentile of n sorted values is the value at rank
 * ceil(p / 100 * n), so it is always one of the observed values (p50 of 1..4 is 2, p99 of 1..100 is 99).
 */
final class Percentiles {

    private final double[] sorted;

    /** Copies and sorts the first {@code count} values. */
    Percentiles(double[] values, int count) {
        this.sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
    }

    int count() {
        return sorted.length;
    }

    /** The p-th percentile (0 &lt; p &lt;= 100); NaN when there are no values. */
    double percentile(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100]: " + p);
        }
        if (sorted.length == 0) {
            return Double.NaN;
        }
        // p * n / 100 rather than p / 100 * n, and a tolerance, so that 0.99 * 100 does not round up to rank 100
        long rank = (long) Math.ceil(p * sorted.length / 100.0 - 1e-9);
        return sorted[(int) Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** The p-th percentile of the values, by nearest rank. */
    static double of(double p, double... values) {
        return new Percentiles(values, values.length).percentile(p);
    }
}
