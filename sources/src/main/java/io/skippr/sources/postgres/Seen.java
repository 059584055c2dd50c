package io.skippr.sources.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The transactions a snapshot could not see below its {@code xmax}: those it lists in progress, and
 * the savepoints (subtransactions) of those, which it does not list. A row written inside a
 * savepoint carries the savepoint's own id in {@code xmin}, above its transaction's; until the
 * transaction ends, {@code txid_status} says the savepoint is in progress, so each id between the
 * snapshot's {@code xmin} and {@code xmax} is asked, just after the snapshot, in the same
 * statement.
 *
 * <p>A transaction the snapshot listed may end before its savepoints are asked: they then answer
 * committed, as a transaction that committed before the snapshot does. {@link #endedSince} tells
 * when that can have happened ({@link #ambiguousAfter}); {@link #resolved} then asks the table
 * which of those ids its snapshot sees.
 *
 * @param xmax the snapshot's xmax, 64-bit
 * @param listed the transactions it lists in progress, 64-bit
 * @param savepoints the ids between its xmin and xmax, but those listed, in progress when asked:
 *     savepoints of a listed transaction, 64-bit
 * @param lastCommitted the highest id between its xmin and xmax, but those listed, that had
 *     committed when asked; null for none
 */
record Seen(long xmax, List<Long> listed, List<Long> savepoints, Long lastCommitted) {
    private static final String SNAPSHOT =
            "SELECT txid_snapshot_xmax(q.s), ARRAY(SELECT txid_snapshot_xip(q.s)), r.sub, r.last"
                    + " FROM (SELECT txid_current_snapshot() AS s) AS q,"
                    + " LATERAL (SELECT array_agg(g.x) FILTER (WHERE g.st = 'in progress') AS sub,"
                    + " max(g.x) FILTER (WHERE g.st = 'committed') AS last"
                    + " FROM (SELECT x, txid_status(x) AS st FROM generate_series("
                    + "txid_snapshot_xmin(q.s) + 1, txid_snapshot_xmax(q.s) - 1) AS x"
                    + " WHERE x <> ALL (ARRAY(SELECT txid_snapshot_xip(q.s)))) AS g) AS r";

    Seen {
        listed = List.copyOf(listed);
        savepoints = List.copyOf(savepoints);
    }

    /** Takes {@code c}'s snapshot (or, in autocommit, a statement's) and asks what it saw. */
    static Seen of(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(SNAPSHOT)) {
            rs.next();
            long xmax = rs.getLong(1);
            Object last = rs.getObject(4);
            return new Seen(
                    xmax,
                    ids(rs, 2),
                    ids(rs, 3),
                    last == null ? null : ((Number) last).longValue());
        }
    }

    private static List<Long> ids(ResultSet rs, int column) throws SQLException {
        java.sql.Array array = rs.getArray(column);
        List<Long> ids = new ArrayList<>();
        if (array != null) {
            for (Object x : (Object[]) array.getArray()) {
                ids.add(((Number) x).longValue());
            }
        }
        return ids;
    }

    /** The transactions the snapshot could not see, as the 32-bit ids rows carry in xmin. */
    List<Long> inProgress() {
        Set<Long> all = new TreeSet<>();
        listed.forEach(x -> all.add(ReadEntry.xid(x)));
        savepoints.forEach(x -> all.add(ReadEntry.xid(x)));
        return List.copyOf(all);
    }

    /**
     * The lowest listed transaction that is no longer in progress, asked after {@link #of}; null
     * for none, or when no id above one could be mistaken for it.
     */
    Long endedSince(Connection c) throws SQLException {
        if (listed.isEmpty() || lastCommitted == null) {
            return null;
        }
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT min(x) FROM unnest(?::int8[]) AS x"
                                + " WHERE txid_status(x) IS DISTINCT FROM 'in progress'")) {
            st.setString(1, array(listed));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                long ended = rs.getLong(1);
                return rs.wasNull() ? null : ended;
            }
        }
    }

    /**
     * Whether an id that answered committed may be a savepoint of listed transaction {@code ended}
     * (which ended after the snapshot, maybe before its savepoints were asked): savepoints have
     * higher ids than their transaction.
     */
    boolean ambiguousAfter(long ended) {
        return lastCommitted != null && lastCommitted > ended;
    }

    /**
     * This with the ids above {@code ended} that answered committed and that {@code c}'s snapshot
     * (this one) does not see among the rows a late read of {@code split}'s may take ({@link
     * SplitQuery#lateScope}) counted as savepoints. An id it sees there committed before the
     * snapshot; one it does not see either did too and wrote no row there (listing it makes the
     * late read take nothing more), or is a savepoint of a transaction that ended after the
     * snapshot. The snapshot never sees the rows of such a savepoint, whatever the scope.
     */
    Seen resolved(Connection c, PostgresSplit split, long ended) throws SQLException {
        List<Long> known = new ArrayList<>(listed);
        known.addAll(savepoints);
        List<Long> committed = new ArrayList<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT x FROM generate_series(?::int8 + 1, ?::int8 - 1) AS x"
                                + " WHERE x <> ALL (?::int8[]) AND txid_status(x) = 'committed'")) {
            st.setLong(1, ended);
            st.setLong(2, xmax);
            st.setString(3, array(known));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    committed.add(rs.getLong(1));
                }
            }
        }
        Set<Long> visible = new HashSet<>();
        List<Object> params = new ArrayList<>();
        List<String> where = new ArrayList<>(SplitQuery.lateScope(split, params));
        where.add("(src.xmin::text::int8) = ANY (?::int8[])");
        params.add(array(committed.stream().map(ReadEntry::xid).toList()));
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT DISTINCT (src.xmin::text::int8) FROM "
                                + split.table().qualifiedName()
                                + " AS src WHERE "
                                + String.join(" AND ", where))) {
            SplitQuery.bind(st, params);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    visible.add(rs.getLong(1));
                }
            }
        }
        List<Long> more = new ArrayList<>(savepoints);
        committed.stream().filter(x -> !visible.contains(ReadEntry.xid(x))).forEach(more::add);
        return new Seen(xmax, listed, more, lastCommitted);
    }

    /** {@code ids} as a PostgreSQL array literal, for a {@code ?::int8[]} parameter. */
    static String array(Collection<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(",", "{", "}"));
    }
}
