package io.skippr.sources.postgres.cdc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether anyone reads a logical slot, and since when nobody has, from {@code
 * pg_replication_slots}. PostgreSQL records when a slot became inactive ({@code inactive_since})
 * only from version 17; before it, an inactive slot's age is unknown and only the WAL it keeps
 * tells that it costs the server.
 *
 * @param slot the slot's name
 * @param activePid the walsender streaming from it now, or 0 when none does
 * @param retainedBytes WAL kept for it: current LSN minus restart LSN
 * @param idleSeconds for an inactive slot on PostgreSQL 17 or later, how long nobody has read it;
 *     -1 when it is active or the server does not record it
 */
public record SlotIdle(String slot, int activePid, long retainedBytes, long idleSeconds) {
    private static final int INACTIVE_SINCE_VERSION = 170000;

    /** The slot's state, or empty when there is no slot of that name. */
    public static Optional<SlotIdle> read(Connection connection, String slot) throws SQLException {
        boolean recorded;
        try (PreparedStatement s =
                        connection.prepareStatement(
                                "SELECT current_setting('server_version_num')::int");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            recorded = rs.getInt(1) >= INACTIVE_SINCE_VERSION;
        }
        String idle =
                recorded
                        ? "CASE WHEN active OR inactive_since IS NULL THEN -1"
                                + " ELSE floor(extract(epoch FROM now() - inactive_since)) END"
                        : "-1";
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT coalesce(active_pid, 0),"
                                + " coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), 0),"
                                + " "
                                + idle
                                + " FROM pg_replication_slots WHERE slot_name = ?")) {
            s.setString(1, slot);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(
                        new SlotIdle(
                                slot, rs.getInt(1), Math.max(0, rs.getLong(2)), rs.getLong(3)));
            }
        }
    }

    public boolean active() {
        return activePid != 0;
    }

    /**
     * The warning for a slot nobody has read for more than {@code maxIdleMinutes} (PostgreSQL 17
     * and later), or, where the server does not record since when, for one nobody reads that keeps
     * more than {@code maxRetainedBytes} of WAL; empty when neither applies.
     */
    public List<String> warnings(String pipeline, long maxIdleMinutes, long maxRetainedBytes) {
        if (active()) {
            return List.of();
        }
        String why;
        if (idleSeconds >= 0) {
            if (idleSeconds <= maxIdleMinutes * 60) {
                return List.of();
            }
            why =
                    " has not been read for "
                            + idleSeconds / 60
                            + " minutes (warning above "
                            + maxIdleMinutes
                            + ", slot_inactive_warning_minutes) and keeps "
                            + mebibytes(retainedBytes)
                            + " of WAL on the server";
        } else {
            if (retainedBytes <= maxRetainedBytes) {
                return List.of();
            }
            why =
                    " is not being read and keeps "
                            + mebibytes(retainedBytes)
                            + " of WAL on the server (warning above "
                            + mebibytes(maxRetainedBytes)
                            + ", slot_wal_warning_mb; PostgreSQL before 17 does not record how"
                            + " long a slot has been inactive)";
        }
        return List.of(
                "replication slot "
                        + slot
                        + why
                        + ": keep pipeline "
                        + pipeline
                        + " running ('skipprd sync --pipeline "
                        + pipeline
                        + "'), or, if it is retired, drop the slot with 'skipprd reset --pipeline "
                        + pipeline
                        + "'");
    }

    static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
