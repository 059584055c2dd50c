package io.skippr.sources.postgres;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * How far a cursor stream's committed position says its table was read, as the next run reads it
 * ({@link Frontier}): every row up to {@link #top} (the cursor column's value, as PostgreSQL text),
 * except, when {@link #unfinished} is not zero, parts below it still to read.
 *
 * @param top the highest cursor value read; null when nothing was committed for the table
 * @param unfinished the reads below {@link #top} the next run still makes: transactions in progress
 *     during a read, and parts or whole windows of a continuous run that stopped while it read
 */
public record CommittedCursor(String top, int unfinished) {

    /** The cursor {@code position}, a position a data sink committed for {@code table}, reaches. */
    public static CommittedCursor of(Connection c, TableInfo table, String position)
            throws SQLException {
        Frontier read = Frontier.of(c, table, position);
        return new CommittedCursor(
                read.top, read.late.size() + read.rest.size() + read.gaps.size());
    }
}
