package io.skippr.cli.verify;

import java.util.ArrayList;
import java.util.List;

/** How many keys of one kind (missing, extra, ...) a stream has, and the first few of them. */
final class Tally {
    /** How many keys of each kind a report names. */
    static final int SHOWN = 10;

    private long count;
    private final List<Key> first = new ArrayList<>();

    void add(Key key) {
        add(key, 1);
    }

    /** {@code rows} rows of {@code key}, named once. */
    void add(Key key, long rows) {
        count += rows;
        if (first.size() < SHOWN) {
            first.add(key);
        }
    }

    long count() {
        return count;
    }

    /** The first keys found, in key order (ranges are compared in key order). */
    List<Key> first() {
        return List.copyOf(first);
    }
}
