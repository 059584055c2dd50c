package io.skippr.cli.verify;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
    private final Set<Key> changed;
    private final Consumer<String> progress;

    private final Tally missing = new Tally();
    private final Tally extra = new Tally();
    private final Tally duplicated = new Tally();
    private final Tally different = new Tally();
    private final Tally notYetSynced = new Tally();

    /**
     * Of {@link #notYetSynced}, the keys the destination holds no row of (rows inserted since),
     * less those the source holds no row of (rows deleted since): by how many rows the
     * destination's count is behind the source's.
     */
    private long rowsBehind;

    private long rangesCompared;
    private long rowsFetched;

    /**
     * @param append the stream is loaded in append mode: a key is fine when exactly one destination
     *     row equals its source row (other versions of it are older loads); in merge mode a key is
     *     fine when it has exactly one destination row and that row is equal
     * @param changed the source keys a change-data-capture stream changed after the committed LSN
     *     (in {@link Key#ORDER}): not synced yet when they differ, whatever the change
     */
    StreamCheck(
            Side source,
            Side destination,
            boolean append,
            Set<Key> changed,
            Consumer<String> progress) {
        this.source = source;
        this.destination = destination;
        this.append = append;
        this.changed = changed;
        this.progress = progress;
    }

    StreamReport run(String stream, String note) throws SQLException {
        ExecutorService pool =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "verify destination");
                            t.setDaemon(true);
                            return t;
                        });
        try {
            return run(stream, note, pool);
        } finally {
            pool.shutdownNow();
        }
    }

    private StreamReport run(String stream, String note, ExecutorService pool) throws SQLException {
        Side.Summary[] all = both(side -> List.of(side.summary(KeyRange.ALL)), pool).get(0);
        long sourceRows = all[0].rows();
        long destinationRows = all[1].rows();
        progress.accept(
                stream
                        + ": "
                        + sourceRows
                        + " source rows, "
                        + destinationRows
                        + " destination rows");
        if (sourceRows > 0 || destinationRows > 0) {
            compare(stream, all, pool);
            long nullKeys = destinationRows > 0 ? destination.nullKeys() : 0;
            if (nullKeys > 0) {
                List<String> nulls = new ArrayList<>();
                source.key().forEach(c -> nulls.add(null));
                extra.add(
                        new Key(
                                nulls,
                                nulls,
                                source.key().stream().map(c -> c.type().kind()).toList()),
                        nullKeys);
            }
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
                        true)
                .inAppendMode(append)
                .withNotYetSynced(StreamReport.Kind.of(notYetSynced), rowsBehind);
    }

    /** A destination without the stream's table: every source row is missing. */
    StreamReport nothingLoaded(String stream, String note) throws SQLException {
        long sourceRows = source.count();
        for (Key key : source.firstKeys(Tally.SHOWN)) {
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

    /**
     * A range still to compare: its own summaries, {source, destination}, and its parent's (null
     * for the whole table).
     */
    private record Pending(
            KeyRange range,
            Side.Summary[] summaries,
            Side.Summary parentSource,
            Side.Summary parentSink) {}

    /**
     * Depth first, in key order, so the first keys found are the smallest; {@code all} holds both
     * sides' summaries of the whole table.
     */
    private void compare(String stream, Side.Summary[] all, ExecutorService pool)
            throws SQLException {
        Deque<Pending> todo = new ArrayDeque<>();
        todo.push(new Pending(KeyRange.ALL, all, null, null));
        long lastSaid = System.nanoTime();
        while (!todo.isEmpty()) {
            Pending next = todo.pop();
            KeyRange range = next.range();
            Side.Summary s = next.summaries()[0];
            Side.Summary d = next.summaries()[1];
            rangesCompared++;
            if (s.sameAs(d)) {
                // equal: nothing more to read here
            } else if (Math.max(s.rows(), d.rows()) <= LEAF_ROWS || noProgress(next, s, d)) {
                leaf(range);
            } else {
                // cut where the side with more rows has its quantiles, so each part is small on it
                Side bigger = s.rows() >= d.rows() ? source : destination;
                long rows = Math.max(s.rows(), d.rows());
                List<KeyRange> parts = parts(range, bigger.cuts(range, rows, FANOUT));
                List<Side.Summary[]> summaries = summaries(range, parts, pool);
                for (int i = parts.size() - 1; i >= 0; i--) {
                    todo.push(new Pending(parts.get(i), summaries.get(i), s, d));
                }
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
                                + range);
            }
        }
    }

    /** Both sides' summaries of {@code parts} of {@code range}, one scan of it each, as above. */
    private List<Side.Summary[]> summaries(
            KeyRange range, List<KeyRange> parts, ExecutorService pool) throws SQLException {
        return both(side -> side.summaries(range, parts), pool);
    }

    /**
     * What {@code read} reads of each side, {source, destination} per entry: the destination's on
     * {@code pool}'s thread while this one reads the source's (two databases, or two sessions of
     * one, each with its own connection).
     */
    private List<Side.Summary[]> both(SideRead read, ExecutorService pool) throws SQLException {
        Future<List<Side.Summary>> d = pool.submit(() -> read.of(destination));
        List<Side.Summary> s;
        try {
            s = read.of(source);
        } catch (SQLException | RuntimeException e) {
            d.cancel(true);
            throw e;
        }
        try {
            List<Side.Summary> dst = d.get();
            List<Side.Summary[]> pairs = new ArrayList<>();
            for (int i = 0; i < s.size(); i++) {
                pairs.add(new Side.Summary[] {s.get(i), dst.get(i)});
            }
            return pairs;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while reading the destination", e);
        }
    }

    /** Summaries read of one side. */
    private interface SideRead {
        List<Side.Summary> of(Side side) throws SQLException;
    }

    /**
     * A part that holds all its parent's rows on both sides (every row of it shares one key, or the
     * cuts fell outside it) is read row by row: cutting it again would not narrow it.
     */
    private static boolean noProgress(Pending p, Side.Summary s, Side.Summary d) {
        return p.parentSource() != null && s.sameAs(p.parentSource()) && d.sameAs(p.parentSink());
    }

    /** {@code range} cut at {@code cuts} (in key order; repeated cuts once). */
    static List<KeyRange> parts(KeyRange range, List<List<String>> cuts) {
        List<KeyRange> parts = new ArrayList<>();
        List<String> low = range.low();
        for (List<String> cut : cuts) {
            if (!cut.equals(low) && !cut.equals(range.high())) {
                parts.add(new KeyRange(low, cut));
                low = cut;
            }
        }
        parts.add(new KeyRange(low, range.high()));
        return parts;
    }

    private void leaf(KeyRange range) throws SQLException {
        Map<Key, Side.Row> src = new TreeMap<>(Key.ORDER);
        for (Side.Row row : source.rows(range)) {
            src.put(row.key(), row);
        }
        Map<Key, List<String>> dst = new TreeMap<>(Key.ORDER);
        long fetched = src.size();
        for (Side.Row row : destination.rows(range)) {
            fetched++;
            if (!row.key().canonical().contains(null)) { // NULL keys are counted apart
                dst.computeIfAbsent(row.key(), k -> new ArrayList<>()).add(row.hash());
            }
        }
        rowsFetched += fetched;
        TreeMap<Key, Key> keys = new TreeMap<>(Key.ORDER);
        src.keySet().forEach(k -> keys.put(k, k));
        dst.keySet().forEach(k -> keys.putIfAbsent(k, k));
        for (Key key : keys.values()) {
            classify(key, src.get(key), dst.get(key));
        }
    }

    /**
     * A key's source row ({@code row}, null for none) against its destination rows' hashes ({@code
     * have}, null for none). A source row newer than the committed position that the destination
     * lacks, or holds an older version of, is not synced yet: neither missing nor different; so is
     * a key a change-data-capture stream changed after the committed LSN ({@link #changed}), its
     * source row deleted since too.
     */
    private void classify(Key key, Side.Row row, List<String> have) {
        boolean changedSince = changed.contains(key);
        if (row == null) {
            if (have != null && changedSince) {
                notYetSynced.add(key);
                rowsBehind--;
            } else if (have != null) {
                extra.add(key);
            }
            return;
        }
        String want = row.hash();
        boolean pending = row.pending() || changedSince;
        Tally unequal = pending ? notYetSynced : different;
        if (have == null) {
            if (pending) {
                notYetSynced.add(key);
                rowsBehind++;
            } else {
                missing.add(key);
            }
        } else if (append) {
            long equal = have.stream().filter(want::equals).count();
            if (equal > 1) {
                duplicated.add(key);
            } else if (equal == 0) {
                unequal.add(key);
            }
        } else if (have.size() > 1) {
            duplicated.add(key);
            if (!have.contains(want)) {
                unequal.add(key);
            }
        } else if (!have.get(0).equals(want)) {
            unequal.add(key);
        }
    }
}
