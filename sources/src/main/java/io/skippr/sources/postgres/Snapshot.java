package io.skippr.sources.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What a split's read knows of the snapshot it reads in, for late commits: the transactions in
 * progress in it, its {@code xmax}, and the other sessions' transactions running around it.
 *
 * @param inProgress the transactions in progress and their savepoints ({@link Seen}), as the 32-bit
 *     ids rows carry in {@code xmin}
 * @param xmax the snapshot's xmax, 64-bit: every id at or above it is invisible to the read
 * @param runningBefore the virtual transaction ids running just before the snapshot was taken
 * @param runningAfter those running just after
 * @param idsSince whether ids at or above {@code xmax} were given out by then
 */
record Snapshot(
        List<Long> inProgress,
        long xmax,
        List<String> runningBefore,
        List<String> runningAfter,
        boolean idsSince) {
    /**
     * The other sessions of this database in a transaction, but a source's own (which only read):
     * each holds the lock of its own virtual transaction id for as long as it runs, with an id for
     * writing or not.
     */
    private static final String RUNNING =
            "SELECT l.virtualxid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                    + " WHERE l.locktype = 'virtualxid' AND l.granted"
                    + " AND l.virtualxid = l.virtualtransaction AND l.pid <> pg_backend_pid()"
                    + " AND a.datid = (SELECT oid FROM pg_database"
                    + " WHERE datname = current_database())"
                    + " AND coalesce(a.backend_type, 'client backend') = 'client backend'"
                    + " AND a.application_name IS DISTINCT FROM '"
                    + PostgresConnectionConfig.APPLICATION_NAME
                    + "'";

    /** Snapshots taken before the rows of the table tell what committed just after one. */
    static final int ATTEMPTS = 5;

    Snapshot {
        inProgress = List.copyOf(inProgress);
        runningBefore = List.copyOf(runningBefore);
        runningAfter = List.copyOf(runningAfter);
    }

    /** The virtual transaction ids the other sessions of this database are running now. */
    static List<String> running(Connection c) throws SQLException {
        List<String> running = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(RUNNING)) {
            while (rs.next()) {
                running.add(rs.getString(1));
            }
        }
        return running;
    }

    /**
     * What runs now, as a statement of {@code c} (in autocommit) sees it: the transactions in
     * progress, and the other sessions in a transaction.
     */
    static Snapshot now(Connection c) throws SQLException {
        Seen seen = Seen.of(c); // a savepoint it missed ends a poll's wait early, nothing else
        List<String> running = running(c);
        return new Snapshot(seen.inProgress(), seen.xmax(), running, running, false);
    }

    /**
     * Takes the snapshot of {@code c}'s transaction (its first statement does, in repeatable read)
     * and what is known around it; {@code runningBefore} was read before, in another transaction.
     * When what the snapshot saw in progress cannot be told apart from what committed just after it
     * ({@link Seen#ambiguousAfter}), the transaction is rolled back and the snapshot taken again;
     * after {@link #ATTEMPTS} such snapshots, the rows of {@code table} tell ({@link
     * Seen#resolved}).
     */
    static Snapshot take(Connection c, List<String> runningBefore, PostgresSplit split)
            throws SQLException {
        for (int attempt = 1; ; attempt++) {
            Seen seen = Seen.of(c);
            Long ended = seen.endedSince(c);
            if (ended != null && seen.ambiguousAfter(ended)) {
                if (attempt < ATTEMPTS) {
                    c.rollback();
                    continue;
                }
                seen = seen.resolved(c, split, ended);
            }
            List<String> runningAfter = running(c);
            boolean idsSince;
            // age() counts from the next id to be given out, as of its first call in a transaction
            try (PreparedStatement st = c.prepareStatement("SELECT age(?::text::xid)")) {
                st.setString(1, Long.toString(ReadEntry.xid(seen.xmax())));
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    idsSince = rs.getLong(1) != 0;
                }
            }
            return new Snapshot(
                    seen.inProgress(), seen.xmax(), runningBefore, runningAfter, idsSince);
        }
    }

    /**
     * The band a window's read leaves open: from its xmax, while a transaction running after it was
     * taken runs (it may have taken its cursor value already), and once more when ids were given
     * out since (a transaction that ran at the snapshot may have written with one and ended before
     * the list after it was read). Null when neither.
     */
    XidBand windowBand() {
        return runningAfter.isEmpty() && !idsSince ? null : new XidBand(xmax, runningAfter);
    }

    /**
     * A late read's own band: its xmax, and the transactions running before its snapshot; of an
     * earlier read's band, only those may still write with ids at or above that xmax.
     */
    XidBand lateBand() {
        return new XidBand(xmax, runningBefore);
    }
}
