package io.skippr.sources.postgres;

import io.skippr.core.record.ReadPositions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the committed position of one table says was read, and so where a run that starts from it
 * begins: everything up to {@link #top} except the {@link #rest} below it, plus the rows of the
 * {@link #late} reads' transactions.
 *
 * <p>A {@code --once} run commits all its reads at once, so its entries say everything up to their
 * highest top was read. A continuous run commits a checkpoint's reads per writer subtask, each with
 * the rows it read: whole reads, and reads in part up to a row ({@link ReadPositions#progress}).
 * Its entries are chained: each names its window's lower bound, the top of the window before it.
 * Following the chain from the last {@code --once} run's top finds the windows read in part (a
 * checkpoint that stopped in the middle of a split, a subtask whose commit did not happen) and the
 * windows no committed entry names at all (gaps): their unread key ranges are read again, and
 * nothing else, so a row is loaded once whatever sequence of runs committed the position.
 */
final class Frontier {
    /** The highest cursor value up to which every row was read, except {@link #rest}; or null. */
    final String top;

    /** Reads whose snapshot saw transactions in progress: their rows are to be read too. */
    final List<ReadEntry> late;

    /** The parts of windows at or below {@link #top} that were not read. */
    final List<PostgresSplit> rest;

    /** Windows at or below {@link #top} nothing of which was read (key ranges still to plan). */
    final List<CursorWindow> gaps;

    private Frontier(
            String top, List<ReadEntry> late, List<PostgresSplit> rest, List<CursorWindow> gaps) {
        this.top = top;
        this.late = late;
        this.rest = rest;
        this.gaps = gaps;
    }

    /** The frontier of {@code committed}, a position a sink committed for {@code table}. */
    static Frontier of(Connection c, TableInfo table, String committed) throws SQLException {
        if (committed == null || !ReadPositions.isEntries(committed)) {
            return new Frontier(committed, List.of(), List.of(), List.of());
        }
        List<ReadEntry> done = new ArrayList<>();
        List<Progress> progress = new ArrayList<>();
        Map<ReadEntry, Set<ReadEntry.Part>> partsRead = new HashMap<>();
        for (String line : ReadPositions.entries(committed)) {
            if (ReadPositions.isProgress(line)) {
                String[] parts = ReadPositions.progressParts(line);
                List<ReadEntry> lateReads = ReadEntry.lateOf(parts[0]);
                if (lateReads == null) {
                    progress.add(
                            new Progress(
                                    ReadEntry.parse(parts[0]), RowDecoder.keyOf(table, parts[1])));
                } else {
                    lateProgress(
                            table,
                            lateReads,
                            ReadEntry.lateOpenOf(parts[0]),
                            ReadEntry.lateXmaxOf(parts[0]),
                            parts[1],
                            partsRead);
                }
            } else {
                done.add(ReadEntry.parse(line));
            }
        }
        Order order = Order.of(c, table, done, progress);
        String base = null;
        for (ReadEntry e : done) {
            if (!e.chained() && e.upTo() != null && order.above(e.upTo(), base)) {
                base = e.upTo();
            }
        }
        // per window above the base, what of it was read
        Map<List<Object>, Window> windows = new LinkedHashMap<>();
        Set<ReadEntry> finished = new LinkedHashSet<>();
        for (ReadEntry e : done) {
            if (e.chained() && order.above(e.upTo(), base)) {
                window(windows, order, e).done.add(e);
                finished.add(e.identity());
            }
        }
        for (Progress p : progress) {
            if (p.opening.chained()
                    && order.above(p.opening.upTo(), base)
                    && !finished.contains(p.opening.identity())) {
                window(windows, order, p.opening).progress.add(p);
            }
        }
        // late reads of the parts of windows read by splits cancelled while they read
        List<ReadEntry> partLate = new ArrayList<>();
        List<PostgresSplit> rest = new ArrayList<>();
        List<CursorWindow> gaps = new ArrayList<>();
        String cur = base;
        List<Window> left = new ArrayList<>(windows.values());
        left.sort(Comparator.comparingInt((Window w) -> order.rank(w.upTo)));
        while (!left.isEmpty()) {
            Window next = null;
            for (Window w : left) {
                if (order.same(w.after, cur) && (cur != null || w.includeNull)) {
                    next = w;
                    break;
                }
            }
            if (next == null) { // nothing committed of the windows from cur up to the lowest one
                Window lowest = left.get(0);
                for (Window w : left) {
                    if (order.rank(w.after) < order.rank(lowest.after)) {
                        lowest = w;
                    }
                }
                gaps.add(new CursorWindow(cur, lowest.after, cur == null));
                cur = lowest.after;
                continue;
            }
            left.remove(next);
            rest.addAll(next.unread(c, table, partLate));
            cur = next.upTo;
        }
        List<ReadEntry> reads = new ArrayList<>(done);
        reads.addAll(partLate); // the late reads of parts read, ended by later entries too
        List<ReadEntry> late = new ArrayList<>();
        for (ReadEntry read : ReadEntry.perRead(reads)) { // a read's transactions still open
            if (read.open()) {
                Set<ReadEntry.Part> known = new LinkedHashSet<>(read.read());
                known.addAll(partsRead.getOrDefault(read.identity(), Set.of()));
                late.add(read.withRead(partsOf(known, read.xids())));
            }
        }
        return new Frontier(cur, late, rest, gaps);
    }

    /**
     * Takes in the progress of a late-commit split cancelled while it read: the split reads its
     * reads' rows in key order, so of the transactions its snapshot saw committed (not {@code
     * open}), it read the rows up to its last row's key, and so of each read's band, those of the
     * ids from its start below the snapshot's {@code xmax}; with the parts its reads carried (read
     * by earlier such splits), that is what of each read's late commits was read. Unknown (and read
     * again) for a table without a key read by an earlier version (by row number), and for an
     * opening of an earlier version, which does not name its snapshot's transactions.
     */
    private static void lateProgress(
            TableInfo table,
            List<ReadEntry> reads,
            List<Long> open,
            Long xmax,
            String lastPosition,
            Map<ReadEntry, Set<ReadEntry.Part>> partsRead) {
        List<String> last = open == null ? null : RowDecoder.keyOf(table, lastPosition);
        if (last == null || !resumable(table, last)) {
            return;
        }
        for (ReadEntry read : reads) {
            Set<ReadEntry.Part> known =
                    partsRead.computeIfAbsent(read.identity(), k -> new LinkedHashSet<>());
            known.addAll(read.read());
            List<Long> seen = new ArrayList<>(read.xids());
            seen.removeAll(open);
            if (read.band() != null && xmax != null) {
                known.add(new ReadEntry.Part(last, seen, read.band().from(), xmax, open));
            } else if (!seen.isEmpty()) {
                known.add(new ReadEntry.Part(last, seen));
            }
        }
    }

    /**
     * The parts of {@code known} about transactions {@code xids}, about those only, and the parts
     * of bands read.
     */
    private static List<ReadEntry.Part> partsOf(Set<ReadEntry.Part> known, List<Long> xids) {
        List<ReadEntry.Part> parts = new ArrayList<>();
        for (ReadEntry.Part part : known) {
            List<Long> of = new ArrayList<>(part.xids());
            of.retainAll(xids);
            if (!of.isEmpty() || part.from() != null) {
                parts.add(
                        new ReadEntry.Part(
                                part.lastKey(),
                                of,
                                part.from(),
                                part.to(),
                                part.except(),
                                part.above()));
            }
        }
        return parts;
    }

    /**
     * One opening of a split opened more than once (after restores), with the transactions any of
     * its snapshots could not see.
     */
    private static ReadEntry eitherOpen(ReadEntry a, ReadEntry b) {
        Set<Long> xids = new java.util.TreeSet<>(a.xids());
        xids.addAll(b.xids());
        Set<ReadEntry.Part> parts = new LinkedHashSet<>(a.read());
        parts.addAll(b.read());
        return a.withOpen(List.copyOf(xids), XidBand.either(a.band(), b.band()))
                .withRead(List.copyOf(parts));
    }

    private static Window window(Map<List<Object>, Window> windows, Order order, ReadEntry e) {
        List<Object> key =
                java.util.Arrays.asList(
                        order.rank(e.after()), order.rank(e.upTo()), e.includeNull());
        return windows.computeIfAbsent(
                key, k -> new Window(e.after(), e.upTo(), Boolean.TRUE.equals(e.includeNull())));
    }

    /** A split read in part: its opening, and the key (or ordinal) of its last committed row. */
    private record Progress(ReadEntry opening, List<String> last) {}

    /** One window of a continuous run and what of it was committed. */
    private static final class Window {
        final String after;
        final String upTo;
        final boolean includeNull;
        final List<ReadEntry> done = new ArrayList<>();
        final List<Progress> progress = new ArrayList<>();

        Window(String after, String upTo, boolean includeNull) {
            this.after = after;
            this.upTo = upTo;
            this.includeNull = includeNull;
        }

        CursorWindow cursor() {
            return new CursorWindow(after, upTo, includeNull);
        }

        /**
         * The splits that read what of this window was not read; for a split read in part of a
         * table with an integer key, also a late read of the part it read (its rows written by
         * transactions then in progress).
         */
        List<PostgresSplit> unread(Connection c, TableInfo table, List<ReadEntry> late)
                throws SQLException {
            if (table.hasIntegerKey()) {
                return unreadRanges(table, late);
            }
            if (!done.isEmpty()) {
                return List.of();
            }
            // one split per window without an integer key: resume after its furthest row, with
            // the transactions the reads of its first part could not see, so that the end of its
            // read names them and the next run reads their rows in the part read too
            Progress furthest = furthest(c, table, progress);
            PostgresSplit split = PostgresSplit.fresh("", table, null, null, cursor());
            if (furthest == null) {
                return List.of(split);
            }
            Unseen unseen =
                    progress.stream()
                            .map(p -> p.opening)
                            .reduce(Frontier::eitherOpen)
                            .orElseThrow()
                            .unseen();
            if (!resumable(table, furthest.last)) { // by row number, as an earlier version read
                return List.of(
                        split.withProgress(null, Long.parseLong(furthest.last.get(0)), unseen));
            }
            return List.of(split.withProgress(furthest.last, 0, unseen));
        }

        private List<PostgresSplit> unreadRanges(TableInfo table, List<ReadEntry> late) {
            // the [from, to) key ranges read, null for no bound
            List<Long[]> ranges = new ArrayList<>();
            for (ReadEntry e : done) {
                ranges.add(new Long[] {e.keyFrom(), e.keyTo()});
            }
            Map<List<Object>, Long> furthest = new HashMap<>();
            Map<List<Object>, ReadEntry> openings = new HashMap<>();
            for (Progress p : progress) {
                List<Object> split =
                        java.util.Arrays.asList(p.opening.keyFrom(), p.opening.keyTo());
                long last = Long.parseLong(p.last.get(0));
                furthest.merge(split, last, Math::max);
                openings.merge(split, p.opening, Frontier::eitherOpen);
            }
            furthest.forEach(
                    (split, last) -> {
                        ReadEntry opening = openings.get(split);
                        ranges.add(new Long[] {opening.keyFrom(), last + 1});
                        if (opening.open()) {
                            late.add(
                                    new ReadEntry(
                                            upTo,
                                            opening.keyFrom(),
                                            last + 1,
                                            opening.xids(),
                                            after,
                                            includeNull,
                                            opening.read(),
                                            opening.band()));
                        }
                    });
            ranges.sort(
                    Comparator.comparingLong((Long[] r) -> r[0] == null ? Long.MIN_VALUE : r[0]));
            List<PostgresSplit> unread = new ArrayList<>();
            long at = Long.MIN_VALUE; // the lowest key not known to be read
            for (Long[] r : ranges) {
                long from = r[0] == null ? Long.MIN_VALUE : r[0];
                if (from > at) {
                    unread.add(split(table, at, from));
                }
                if (r[1] == null) {
                    return unread; // read to the top of the key range
                }
                at = Math.max(at, r[1]);
            }
            unread.add(
                    PostgresSplit.fresh(
                            "", table, at == Long.MIN_VALUE ? null : at, null, cursor()));
            return unread;
        }

        private PostgresSplit split(TableInfo table, long from, long to) {
            return PostgresSplit.fresh(
                    "", table, from == Long.MIN_VALUE ? null : from, to, cursor());
        }

        /** The progress whose last row comes last in key order; null for none. */
        private static Progress furthest(Connection c, TableInfo table, List<Progress> all)
                throws SQLException {
            if (all.size() <= 1) {
                return all.isEmpty() ? null : all.get(0);
            }
            if (all.stream().anyMatch(p -> !resumable(table, p.last))) { // an earlier version's
                return all.stream()
                        .max(Comparator.comparingLong(p -> rowNumber(table, p.last)))
                        .orElseThrow();
            }
            List<String> key = RowOrder.of(table).types();
            StringBuilder sql = new StringBuilder("SELECT i FROM (VALUES ");
            for (int i = 0; i < all.size(); i++) {
                sql.append(i == 0 ? "(" : ", (").append(i);
                for (String type : key) {
                    sql.append(", ?::").append(type);
                }
                sql.append(')');
            }
            sql.append(") AS v(i");
            for (int k = 0; k < key.size(); k++) {
                sql.append(", k").append(k);
            }
            sql.append(") ORDER BY ");
            for (int k = 0; k < key.size(); k++) {
                sql.append(k == 0 ? "" : ", ").append('k').append(k).append(" DESC");
            }
            sql.append(" LIMIT 1");
            try (PreparedStatement s = c.prepareStatement(sql.toString())) {
                int n = 1;
                for (Progress p : all) {
                    for (String v : p.last.subList(0, key.size())) {
                        s.setString(n++, v);
                    }
                }
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    return all.get(rs.getInt(1));
                }
            }
        }
    }

    /** The cursor values of a position in the cursor column's order, as PostgreSQL sorts them. */
    private static final class Order {
        private final Map<String, Integer> ranks;

        private Order(Map<String, Integer> ranks) {
            this.ranks = ranks;
        }

        static Order of(Connection c, TableInfo table, List<ReadEntry> done, List<Progress> more)
                throws SQLException {
            Set<String> texts = new LinkedHashSet<>();
            for (ReadEntry e : done) {
                add(texts, e);
            }
            for (Progress p : more) {
                add(texts, p.opening);
            }
            Map<String, Integer> ranks = new HashMap<>();
            if (texts.isEmpty()) {
                return new Order(ranks);
            }
            ColumnInfo cursor = table.column(table.cursorColumn());
            try (PreparedStatement s =
                    c.prepareStatement(
                            "SELECT v, dense_rank() OVER (ORDER BY v::"
                                    + cursor.castType()
                                    + ") FROM unnest(?::text[]) AS v")) {
                s.setArray(1, c.createArrayOf("text", texts.toArray()));
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        ranks.put(rs.getString(1), rs.getInt(2));
                    }
                }
            }
            return new Order(ranks);
        }

        private static void add(Set<String> texts, ReadEntry e) {
            if (e.upTo() != null) {
                texts.add(e.upTo());
            }
            if (e.after() != null) {
                texts.add(e.after());
            }
        }

        /** The rank of a value; 0 for null, below every value. */
        int rank(String value) {
            return value == null ? 0 : ranks.get(value);
        }

        boolean above(String value, String than) {
            return rank(value) > rank(than);
        }

        boolean same(String a, String b) {
            return rank(a) == rank(b);
        }
    }

    /**
     * Whether a read of {@code table} can resume after {@code last}, a position's resume key: a key
     * does, and so does a row address; a row number (an earlier version's, without a key) does not.
     */
    static boolean resumable(TableInfo table, List<String> last) {
        return !RowOrder.of(table).byAddress() || last.size() == 3;
    }

    /** The row number of an earlier version's position without a key; 0 for any other. */
    private static long rowNumber(TableInfo table, List<String> last) {
        return resumable(table, last) ? 0 : Long.parseLong(last.get(0));
    }
}
