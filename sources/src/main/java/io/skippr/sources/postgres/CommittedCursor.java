package io.skippr.sources.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * How far a cursor stream's committed position says its table was read, as the next run reads it
 * ({@link Frontier}), and which rows that run would read: those not synced yet.
 *
 * @param top the highest cursor value read (as PostgreSQL text); null when nothing was committed
 *     for the table
 * @param pending a SQL condition on the table aliased {@value SplitQuery#ALIAS}, true for a row the
 *     next run reads: a cursor value above {@code top}, or a row of the reads the position leaves
 *     to it below {@code top} (rows of transactions in progress during a read, and parts or whole
 *     windows of a continuous run that stopped while it read); null with {@code top}
 */
public record CommittedCursor(String top, String pending) {

    /** The alias {@link #pending} names the table by. */
    public static final String ALIAS = SplitQuery.ALIAS;

    /**
     * The cursor {@code position}, a position a data sink committed for {@code table}, reaches,
     * read in {@code c}'s transaction: its snapshot bounds the rows of transactions in progress
     * during a read, as a run starting now would read them.
     */
    public static CommittedCursor of(Connection c, TableInfo table, String position)
            throws SQLException {
        Frontier read = Frontier.of(c, table, position);
        if (read.top == null) {
            return new CommittedCursor(null, null);
        }
        List<Object> params = new ArrayList<>();
        ColumnInfo cursor = table.column(table.cursorColumn());
        List<String> any = new ArrayList<>();
        any.add(SplitQuery.column(cursor.name()) + " > ?::" + cursor.castType());
        params.add(read.top);
        List<PostgresSplit> below = new ArrayList<>(read.rest);
        if (!read.late.isEmpty()) {
            below.add(PostgresSplit.lateCommits("", table, read.late));
        }
        for (CursorWindow gap : read.gaps) {
            below.add(PostgresSplit.fresh("", table, null, null, gap));
        }
        Long xmax = below.isEmpty() ? null : xmax(c);
        RowOrder order = RowOrder.of(table);
        for (PostgresSplit split : below) {
            List<String> all = SplitQuery.conditions(split, xmax, order, params);
            any.add(all.isEmpty() ? "TRUE" : "(" + String.join(" AND ", all) + ")");
        }
        return new CommittedCursor(
                read.top, SplitQuery.inline("(" + String.join(" OR ", any) + ")", params));
    }

    /** The 64-bit xmax of {@code c}'s snapshot. */
    private static long xmax(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT txid_snapshot_xmax(txid_current_snapshot())")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
