package io.skippr.cli.verify;

import java.util.List;

/**
 * A range of keys in key order, {@code (low, high]}: above {@code low} and up to {@code high}, each
 * a key as one side printed it ({@link Key#shown}); null for no bound. Ranges are cut at keys the
 * source or destination holds (quantiles in key order), never by arithmetic on the key, so any
 * orderable key and composite keys split alike.
 */
record KeyRange(List<String> low, List<String> high) {
    static final KeyRange ALL = new KeyRange(null, null);

    @Override
    public String toString() {
        return "(" + show(low) + ", " + show(high) + "]";
    }

    private static String show(List<String> bound) {
        if (bound == null) {
            return "-";
        }
        return bound.size() == 1 ? bound.get(0) : "(" + String.join(", ", bound) + ")";
    }
}
