package io.skippr.sources.postgres.cdc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a logical slot costs its server, read from {@code pg_replication_slots}: the WAL it keeps
 * (from its restart LSN to the server's current one, which PostgreSQL cannot recycle while the slot
 * exists), how far its confirmed LSN is behind, and whether a stream is reading it. A slot nobody
 * reads keeps WAL without bound until the disk fills or {@code max_slot_wal_keep_size} invalidates
 * it, so both are what {@link #warnings} names.
 *
 * @param slot the slot's name
 * @param active whether a walsender streams from it now
 * @param retainedBytes WAL kept for it: current LSN minus restart LSN
 * @param lagBytes changes not yet confirmed: current LSN minus confirmed flush LSN
 * @param walStatus PostgreSQL's {@code wal_status}: reserved, extended, unreserved or lost
 */
public record SlotHealth(
        String slot, boolean active, long retainedBytes, long lagBytes, String walStatus) {

    /** The slot's health, or empty when there is no slot of that name. */
    public static Optional<SlotHealth> read(Connection connection, String slot)
            throws SQLException {
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT active,"
                                + " coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), 0),"
                                + " coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(),"
                                + " confirmed_flush_lsn), 0), coalesce(wal_status, 'lost')"
                                + " FROM pg_replication_slots WHERE slot_name = ?")) {
            s.setString(1, slot);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(
                        new SlotHealth(
                                slot,
                                rs.getBoolean(1),
                                Math.max(0, rs.getLong(2)),
                                Math.max(0, rs.getLong(3)),
                                rs.getString(4)));
            }
        }
    }

    /**
     * What a user must hear about the slot: WAL kept past {@code maxRetainedBytes}, no stream
     * reading it, or WAL it needed already removed. Empty when none applies.
     */
    public List<String> warnings(long maxRetainedBytes) {
        List<String> warnings = new ArrayList<>();
        if ("lost".equals(walStatus)) {
            warnings.add(
                    "replication slot "
                            + slot
                            + " is invalidated: PostgreSQL removed WAL it still needed"
                            + " (max_slot_wal_keep_size); its changes cannot be read any more");
            return warnings;
        }
        if (retainedBytes > maxRetainedBytes) {
            warnings.add(
                    "replication slot "
                            + slot
                            + " keeps "
                            + mebibytes(retainedBytes)
                            + " of WAL on the server (warning above "
                            + mebibytes(maxRetainedBytes)
                            + "); PostgreSQL cannot recycle it until the pipeline confirms"
                            + " the changes");
        }
        if (!active) {
            warnings.add(
                    "replication slot "
                            + slot
                            + " is not being read: WAL grows on the server until the pipeline"
                            + " runs again or the slot is dropped");
        }
        return warnings;
    }

    private static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
