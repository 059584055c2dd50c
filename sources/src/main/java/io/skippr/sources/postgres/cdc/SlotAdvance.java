package io.skippr.sources.postgres.cdc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Moves an idle slot to an LSN the destination has committed, so the server keeps only the WAL a
 * next run needs: what a bounded run does once it ended, when no walsender reads the slot.
 *
 * <p>A slot's restart LSN (where the server keeps WAL from) moves only to a point decoding found in
 * a running-transactions record, and such a point applies only once the confirmed LSN reaches it.
 * {@code pg_replication_slot_advance} decodes, without output, from the restart LSN up to its
 * target and then confirms the target; while it decodes, points before the old confirmed LSN apply
 * at once, but of the points after it only the first is held as a candidate, which the final
 * confirm applies. The second call decodes from there with everything up to the target confirmed,
 * so it moves the restart LSN to the last point before the target: the server then keeps the WAL of
 * transactions still open at that point, and what was written after it.
 */
public final class SlotAdvance {
    private static final Duration POLL = Duration.ofMillis(100);

    private SlotAdvance() {}

    /** The slot's LSNs before and after, as bytes from {@code 0/0}. */
    public record Moved(long restartBefore, long restartAfter, long confirmed) {
        /**
         * {@code to the committed 0/2158000: the server keeps its WAL from 0/201ACD8 (was ...)}.
         */
        public String describe() {
            return "to the committed "
                    + Lsn.show(confirmed)
                    + ": the server keeps its WAL from "
                    + Lsn.show(restartAfter)
                    + " (was "
                    + Lsn.show(restartBefore)
                    + ")";
        }
    }

    /**
     * Moves {@code slot} to {@code lsn} (or, when it confirmed more already, keeps its confirmed
     * LSN and moves only its restart LSN); empty when the slot does not exist, or when a walsender
     * still reads it after {@code wait} (the run's own, which ends a moment after the run closed
     * it).
     */
    public static Optional<Moved> to(Connection c, String slot, long lsn, Duration wait)
            throws SQLException {
        long deadline = System.nanoTime() + wait.toNanos();
        Optional<long[]> state = read(c, slot);
        while (state.isPresent() && state.get()[0] != 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL.toNanos());
            state = read(c, slot);
        }
        if (state.isEmpty() || state.get()[0] != 0) {
            return Optional.empty();
        }
        long restart = state.get()[1];
        long target = Math.max(lsn, state.get()[2]);
        for (int call = 0; call < 2; call++) {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT 1 FROM pg_replication_slot_advance(?, ?::pg_lsn)")) {
                s.setString(1, slot);
                s.setString(2, Lsn.show(target));
                s.executeQuery().close();
            }
        }
        long[] after = read(c, slot).orElseThrow();
        return Optional.of(new Moved(restart, after[1], after[2]));
    }

    /** {active pid or 0, restart LSN, confirmed LSN} of {@code slot}; empty when it is missing. */
    private static Optional<long[]> read(Connection c, String slot) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement(
                        "SELECT coalesce(active_pid, 0),"
                                + " (restart_lsn - '0/0'::pg_lsn)::bigint,"
                                + " (confirmed_flush_lsn - '0/0'::pg_lsn)::bigint"
                                + " FROM pg_replication_slots WHERE slot_name = ?")) {
            s.setString(1, slot);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)});
            }
        }
    }
}
