package io.skippr.cli.verify;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Compares one stream's source and destination tables by key ranges: both sides' row count and hash
 * sum per range, ranges that differ cut into {@link #FANOUT} parts until they hold at most {@link
 * #LEAF_ROWS} rows, then the keys and row hashes of just those ranges. Equal ranges cost one
 * aggregate query per side; memory stays at one small range.
 */
final class StreamCheck {
    static final int FANOUT = 16;
    static final int LEAF_ROWS = 1000;

    /** How often a long scan says where it is, on stderr. */
    private static final long PROGRESS_NANOS = 5_000_000_000L;

    private final Side source;
    private final Side destination;
    private final boolean append;
    private final Consumer<String> progress;

    private final Tally missing = new Tally();
    private final Tally extra = new Tally();
    private final Tally duplicated = new Tally();
    private final Tally different = new Tally();
    private long rangesCompared;
    private long rowsFetched;

    /**
     * @param append the stream is loaded in append mode: a key is fine when exactly one destination
     *     row equals its source row (other versions of it are older loads); in merge mode a key is
     *     fine when it has exactly one destination row and that row is equal
     */
    StreamCheck(Side source, Side destination, boolean append, Consumer<String> progress) {
        this.source = source;
        this.destination = destination;
        this.append = append;
        this.progress = progress;
    }

    StreamReport run(String stream, long destinationRows, String note) throws SQLException {
        long sourceRows = source.count();
        progress.accept(
                stream
                        + ": "
                        + sourceRows
                        + " source rows, "
                        + destinationRows
                        + " destination rows");
        KeyRange all = span(source.bounds(), destinationRows > 0 ? destination.bounds() : null);
        if (all != null) {
            compare(stream, all);
        }
        return new StreamReport(
                stream,
                sourceRows,
                destinationRows,
                StreamReport.Kind.of(missing),
                StreamReport.Kind.of(extra),
                StreamReport.Kind.of(duplicated),
                StreamReport.Kind.of(different),
                note,
                true);
    }

    /** A destination without the stream's table: every source row is missing. */
    StreamReport nothingLoaded(String stream, String note) throws SQLException {
        long sourceRows = source.count();
        for (long key : source.firstKeys(Tally.SHOWN)) {
            missing.add(key);
        }
        StreamReport.Kind all = new StreamReport.Kind(sourceRows, missing.first());
        return new StreamReport(
                stream,
                sourceRows,
                0,
                all,
                StreamReport.Kind.NONE,
                StreamReport.Kind.NONE,
                StreamReport.Kind.NONE,
                note,
                true);
    }

    static KeyRange span(KeyRange a, KeyRange b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return new KeyRange(Math.min(a.low(), b.low()), Math.max(a.high(), b.high()));
    }

    /** Depth first, in key order, so the first keys found are the smallest. */
    private void compare(String stream, KeyRange all) throws SQLException {
        Deque<KeyRange> todo = new ArrayDeque<>();
        pushSplit(todo, all);
        long lastSaid = System.nanoTime();
        while (!todo.isEmpty()) {
            KeyRange range = todo.pop();
            Side.Summary s = source.summary(range);
            Side.Summary d = destination.summary(range);
            rangesCompared++;
            if (s.sameAs(d)) {
                // equal: nothing more to read here
            } else if (Math.max(s.rows(), d.rows()) <= LEAF_ROWS || range.low() == range.high()) {
                leaf(range);
            } else {
                pushSplit(todo, range);
            }
            if (System.nanoTime() - lastSaid > PROGRESS_NANOS) {
                lastSaid = System.nanoTime();
                progress.accept(
                        stream
                                + ": "
                                + rangesCompared
                                + " key ranges compared, "
                                + rowsFetched
                                + " rows fetched, now at key "
                                + range.low());
            }
        }
    }

    private static void pushSplit(Deque<KeyRange> todo, KeyRange range) {
        List<KeyRange> parts = new ArrayList<>(range.split(FANOUT));
        for (int i = parts.size() - 1; i >= 0; i--) {
            todo.push(parts.get(i));
        }
    }

    private void leaf(KeyRange range) throws SQLException {
        Map<Long, String> src = new TreeMap<>();
        for (Side.Row row : source.rows(range)) {
            src.put(row.key(), row.hash());
        }
        Map<Long, List<String>> dst = new TreeMap<>();
        for (Side.Row row : destination.rows(range)) {
            dst.computeIfAbsent(row.key(), k -> new ArrayList<>()).add(row.hash());
        }
        rowsFetched += src.size() + dst.size();
        TreeMap<Long, Boolean> keys = new TreeMap<>();
        src.keySet().forEach(k -> keys.put(k, true));
        dst.keySet().forEach(k -> keys.put(k, true));
        for (long key : keys.keySet()) {
            classify(key, src.get(key), dst.get(key));
        }
    }

    private void classify(long key, String want, List<String> have) {
        if (have == null) {
            missing.add(key);
        } else if (want == null) {
            extra.add(key);
        } else if (append) {
            long equal = have.stream().filter(want::equals).count();
            if (equal > 1) {
                duplicated.add(key);
            } else if (equal == 0) {
                different.add(key);
            }
        } else if (have.size() > 1) {
            duplicated.add(key);
            if (!have.contains(want)) {
                different.add(key);
            }
        } else if (!have.get(0).equals(want)) {
            different.add(key);
        }
    }
}
