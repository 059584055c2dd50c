package io.skippr.cli.verify;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One side of a stream's comparison: a table read over a connection in a read-only transaction,
 * with the SQL of its key and of its rows' canonical hash.
 *
 * @param table the quoted, qualified table
 * @param key the quoted key column
 * @param hash the SQL of a row's hash (see {@link Canonical#rowHash})
 */
record Side(
        Connection connection, Canonical.Dialect dialect, String table, String key, String hash) {

    /** How many rows a range holds, and an order-free sum of 60 bits of each row's hash. */
    record Summary(long rows, String sum) {
        boolean sameAs(Summary other) {
            return rows == other.rows && Objects.equals(sum, other.sum);
        }
    }

    /** A row of a small range: its key and its hash. */
    record Row(long key, String hash) {}

    long count() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The smallest and largest key, or null when the table is empty. */
    KeyRange bounds() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs =
                        s.executeQuery("SELECT min(" + key + "), max(" + key + ") FROM " + table)) {
            rs.next();
            long low = rs.getLong(1);
            return rs.wasNull() ? null : new KeyRange(low, rs.getLong(2));
        }
    }

    /** The {@code n} smallest keys. */
    List<Long> firstKeys(int n) throws SQLException {
        List<Long> keys = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT "
                                        + key
                                        + " FROM "
                                        + table
                                        + " ORDER BY "
                                        + key
                                        + " LIMIT "
                                        + n)) {
            while (rs.next()) {
                keys.add(rs.getLong(1));
            }
        }
        return keys;
    }

    Summary summary(KeyRange range) throws SQLException {
        String bits =
                dialect == Canonical.Dialect.POSTGRES
                        ? "('x' || substr(" + hash + ", 1, 15))::bit(60)::bigint"
                        : "CAST('0x' || substr(" + hash + ", 1, 15) AS BIGINT)";
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT count(*), CAST(sum("
                                + bits
                                + ") AS VARCHAR) FROM "
                                + table
                                + where())) {
            bind(s, range);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return new Summary(rs.getLong(1), rs.getString(2));
            }
        }
    }

    /** Every row of {@code range}: only ever asked of ranges of a few hundred rows. */
    List<Row> rows(KeyRange range) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT " + key + ", " + hash + " FROM " + table + where())) {
            bind(s, range);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getLong(1), rs.getString(2)));
                }
            }
        }
        return rows;
    }

    private String where() {
        return " WHERE " + key + " BETWEEN ? AND ?";
    }

    private static void bind(PreparedStatement s, KeyRange range) throws SQLException {
        s.setLong(1, range.low());
        s.setLong(2, range.high());
    }
}
