package io.skippr.cli.verify;

import io.skippr.core.record.DataType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One side of a stream's comparison: a table read over a connection in a read-only transaction,
 * with its key columns and the SQL of its rows' canonical hash.
 *
 * @param table the quoted, qualified table
 * @param key the key columns, in key order
 * @param hash the SQL of a row's hash (see {@link Canonical#rowHash})
 */
record Side(
        Connection connection,
        Canonical.Dialect dialect,
        String table,
        List<KeyColumn> key,
        String hash) {

    /**
     * A key column.
     *
     * @param sql the quoted column
     * @param castType the side's type of the column, which a bound's text is cast to
     */
    record KeyColumn(String sql, String castType, DataType type) {}

    /** How many rows a range holds, and an order-free sum of 60 bits of each row's hash. */
    record Summary(long rows, String sum) {
        boolean sameAs(Summary other) {
            return rows == other.rows && Objects.equals(sum, other.sum);
        }
    }

    /** A row of a small range: its key and its hash. */
    record Row(Key key, String hash) {}

    long count() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Rows with a NULL in a key column (only a destination can hold them). */
    long nullKeys() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT count(*) FROM "
                                        + table
                                        + " WHERE "
                                        + key.stream()
                                                .map(c -> c.sql() + " IS NULL")
                                                .collect(Collectors.joining(" OR ")))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The {@code n} smallest keys. */
    List<Key> firstKeys(int n) throws SQLException {
        List<Key> keys = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT "
                                        + keyColumns()
                                        + " FROM "
                                        + table
                                        + " ORDER BY "
                                        + order()
                                        + " LIMIT "
                                        + n)) {
            while (rs.next()) {
                keys.add(key(rs));
            }
        }
        return keys;
    }

    Summary summary(KeyRange range) throws SQLException {
        String bits =
                dialect == Canonical.Dialect.POSTGRES
                        ? "('x' || substr(" + hash + ", 1, 15))::bit(60)::bigint"
                        : "CAST('0x' || substr(" + hash + ", 1, 15) AS BIGINT)";
        Where where = where(range);
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT count(*), CAST(sum("
                                + bits
                                + ") AS VARCHAR) FROM "
                                + table
                                + where.sql())) {
            where.bind(s);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return new Summary(rs.getLong(1), rs.getString(2));
            }
        }
    }

    /** Every row of {@code range}: only ever asked of ranges of a few hundred rows. */
    List<Row> rows(KeyRange range) throws SQLException {
        List<Row> rows = new ArrayList<>();
        Where where = where(range);
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT " + keyColumns() + ", " + hash + " FROM " + table + where.sql())) {
            where.bind(s);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(key(rs), rs.getString(2 * key.size() + 1)));
                }
            }
        }
        return rows;
    }

    /**
     * The keys that cut the {@code rows} rows of {@code range} into {@code parts} nearly equal
     * parts, in key order, as this side prints them: every {@code ceil(rows / parts)}th key.
     */
    List<List<String>> cuts(KeyRange range, long rows, int parts) throws SQLException {
        long step = Math.max(1, (rows + parts - 1) / parts);
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            shown.add(shown(key.get(i)) + " AS \"k" + i + "\"");
        }
        String outer =
                IntStream.range(0, key.size())
                        .mapToObj(i -> "\"k" + i + "\"")
                        .collect(Collectors.joining(", "));
        Where where = where(range);
        List<List<String>> cuts = new ArrayList<>();
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT "
                                + outer
                                + " FROM (SELECT "
                                + String.join(", ", shown)
                                + ", row_number() OVER (ORDER BY "
                                + order()
                                + ") AS \"rn\" FROM "
                                + table
                                + where.sql()
                                + ") q WHERE \"rn\" % "
                                + step
                                + " = 0 ORDER BY \"rn\"")) {
            where.bind(s);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    List<String> cut = new ArrayList<>();
                    for (int i = 0; i < key.size(); i++) {
                        cut.add(rs.getString(i + 1));
                    }
                    cuts.add(cut);
                }
            }
        }
        return cuts;
    }

    /** Each key column's canonical text, then its printed text. */
    private String keyColumns() {
        // aliased: an ORDER BY of a key column must not name an output column
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            KeyColumn c = key.get(i);
            columns.add(
                    Canonical.value(dialect, c.type(), c.sql(), false)
                            + " AS \"_skippr_canonical_"
                            + i
                            + "\"");
        }
        for (int i = 0; i < key.size(); i++) {
            columns.add(shown(key.get(i)) + " AS \"_skippr_shown_" + i + "\"");
        }
        return String.join(", ", columns);
    }

    private Key key(ResultSet rs) throws SQLException {
        List<String> canonical = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            canonical.add(rs.getString(i + 1));
            shown.add(rs.getString(key.size() + i + 1));
        }
        return new Key(canonical, shown, key.stream().map(c -> c.type().kind()).toList());
    }

    private String shown(KeyColumn c) {
        return dialect == Canonical.Dialect.POSTGRES
                ? c.sql() + "::text"
                : "CAST(" + c.sql() + " AS VARCHAR)";
    }

    /** The column as it orders: texts by their bytes on PostgreSQL (DuckDB's default order). */
    private String ordered(KeyColumn c) {
        return collate(c, c.sql());
    }

    private String collate(KeyColumn c, String sql) {
        return dialect == Canonical.Dialect.POSTGRES && c.type().kind() == DataType.Kind.STRING
                ? sql + " COLLATE \"C\""
                : sql;
    }

    private String order() {
        return key.stream().map(this::ordered).collect(Collectors.joining(", "));
    }

    private String parameter(KeyColumn c) {
        return collate(c, "CAST(? AS " + c.castType() + ")");
    }

    /** A WHERE clause and the texts bound to its parameters, in order. */
    private record Where(String sql, List<String> values) {
        void bind(PreparedStatement s) throws SQLException {
            for (int i = 0; i < values.size(); i++) {
                s.setString(i + 1, values.get(i));
            }
        }
    }

    private Where where(KeyRange range) {
        List<String> terms = new ArrayList<>();
        List<String> values = new ArrayList<>();
        if (range.low() != null) {
            terms.add(compare(range.low(), ">", ">", 0, values));
        }
        if (range.high() != null) {
            terms.add(compare(range.high(), "<", "<=", 0, values));
        }
        return new Where(terms.isEmpty() ? "" : " WHERE " + String.join(" AND ", terms), values);
    }

    /**
     * The key compared with {@code bound} in key order, from column {@code i} on: {@code (a, b) >
     * (x, y)} is {@code a > x OR (a = x AND b > y)}, written out for any database.
     */
    private String compare(
            List<String> bound, String op, String lastOp, int i, List<String> values) {
        KeyColumn c = key.get(i);
        String column = ordered(c);
        if (i == key.size() - 1) {
            values.add(bound.get(i));
            return column + " " + lastOp + " " + parameter(c);
        }
        values.add(bound.get(i));
        values.add(bound.get(i));
        return "("
                + column
                + " "
                + op
                + " "
                + parameter(c)
                + " OR ("
                + column
                + " = "
                + parameter(c)
                + " AND "
                + compare(bound, op, lastOp, i + 1, values)
                + "))";
    }
}
