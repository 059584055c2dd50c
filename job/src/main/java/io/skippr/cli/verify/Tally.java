package io.skippr.cli.verify;

import java.util.ArrayList;
import java.util.List;

/** How many keys of one kind (missing, extra, ...) a stream has, and the first few of them. */
final class Tally {
    /** How many keys of each kind a report names. */
    static final int SHOWN = 10;

    private long count;
    private final List<Long> first = new ArrayList<>();

    void add(long key) {
        count++;
        if (first.size() < SHOWN) {
            first.add(key);
        }
    }

    long count() {
        return count;
    }

    /** The first keys found, in key order (ranges are compared in key order). */
    List<Long> first() {
        return List.copyOf(first);
    }
}
