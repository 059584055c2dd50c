package io.skippr.cli.verify;

import io.skippr.core.record.DataType;
import java.math.BigInteger;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One side of a stream's comparison: a table read in a read-only transaction (or, on ClickHouse, by
 * plain SELECTs), with its key columns and the SQL of its rows' canonical hash.
 *
 * @param table the quoted, qualified table (on ClickHouse with {@code FINAL})
 * @param key the key columns, in key order
 * @param hash the SQL of a row's hash (see {@link Canonical#rowHash})
 * @param pending the SQL of a condition true for a row the pipeline has not synced yet (its cursor
 *     value is above the committed position); null when every row counts as synced
 */
record Side(
        Reader reader,
        Canonical.Dialect dialect,
        String table,
        List<KeyColumn> key,
        String hash,
        String pending) {

    Side(Reader reader, Canonical.Dialect dialect, String table, List<KeyColumn> key, String hash) {
        this(reader, dialect, table, key, hash, null);
    }

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

    /**
     * A row of a small range: its key and its hash, and whether it is newer than the committed
     * position ({@link #pending}).
     */
    record Row(Key key, String hash, boolean pending) {}

    long count() throws SQLException {
        return Long.parseLong(reader.query("SELECT count(*) FROM " + table, List.of()).get(0)[0]);
    }

    /** Rows with a NULL in a key column (only a destination can hold them). */
    long nullKeys() throws SQLException {
        String where =
                key.stream().map(c -> c.sql() + " IS NULL").collect(Collectors.joining(" OR "));
        return Long.parseLong(
                reader.query("SELECT count(*) FROM " + table + " WHERE " + where, List.of())
                        .get(0)[0]);
    }

    /** The {@code n} smallest keys. */
    List<Key> firstKeys(int n) throws SQLException {
        List<Key> keys = new ArrayList<>();
        for (String[] row :
                reader.query(
                        "SELECT "
                                + keyColumns()
                                + " FROM "
                                + table
                                + " ORDER BY "
                                + order()
                                + " LIMIT "
                                + n,
                        List.of())) {
            keys.add(key(row));
        }
        return keys;
    }

    Summary summary(KeyRange range) throws SQLException {
        List<String> params = new ArrayList<>();
        String where = where(range, params);
        String[] row =
                reader.query(
                                "SELECT count(*), "
                                        + Canonical.hashSums(dialect, hash)
                                        + " FROM "
                                        + table
                                        + where,
                                params)
                        .get(0);
        return summary(row, 0);
    }

    /**
     * The summaries of {@code parts}, the consecutive parts of {@code range} ({@link
     * StreamCheck#parts}), in their order, read in one scan of the range: a table without an index
     * on the key (an append destination) is scanned once, not once per part.
     */
    List<Summary> summaries(KeyRange range, List<KeyRange> parts) throws SQLException {
        List<String> params = new ArrayList<>();
        StringBuilder part = new StringBuilder("CASE WHEN ");
        part.append(key.stream().map(c -> c.sql() + " IS NULL").collect(Collectors.joining(" OR ")))
                .append(" THEN -1"); // counted apart, as outside every bounded range
        for (int i = 0; i < parts.size() - 1; i++) {
            part.append(" WHEN ")
                    .append(compare(parts.get(i).high(), "<", "<=", 0, params))
                    .append(" THEN ")
                    .append(i);
        }
        part.append(" ELSE ").append(parts.size() - 1).append(" END");
        String where = where(range, params);
        Summary[] found = new Summary[parts.size()];
        Arrays.fill(found, new Summary(0, null));
        for (String[] row :
                reader.query(
                        "SELECT "
                                + name("part")
                                + ", count(*), "
                                + Canonical.hashSums(dialect, name("h"))
                                + " FROM (SELECT "
                                + part
                                + " AS "
                                + name("part")
                                + ", "
                                + hash
                                + " AS "
                                + name("h")
                                + " FROM "
                                + table
                                + where
                                + ") q GROUP BY "
                                + name("part"),
                        params)) {
            int i = Integer.parseInt(row[0]);
            if (i >= 0) {
                found[i] = summary(row, 1);
            }
        }
        return List.of(found);
    }

    /** The summary in {@code row} from column {@code at} on: the count, then the sums. */
    private Summary summary(String[] row, int at) {
        long rows = Long.parseLong(row[at]);
        if (rows == 0) {
            return new Summary(0, null); // an empty sum is NULL on some databases, 0 on others
        }
        if (dialect == Canonical.Dialect.CLICKHOUSE) {
            // its sums are of the hash's first 32 bits and of the next 28, apart (no 128-bit sum)
            BigInteger sum =
                    new BigInteger(row[at + 1]).shiftLeft(28).add(new BigInteger(row[at + 2]));
            return new Summary(rows, sum.toString());
        }
        return new Summary(rows, row[at + 1]);
    }

    /** Every row of {@code range}: only ever asked of ranges of a few hundred rows. */
    List<Row> rows(KeyRange range) throws SQLException {
        List<Row> rows = new ArrayList<>();
        List<String> params = new ArrayList<>();
        String where = where(range, params);
        String flag = pending == null ? "" : ", CASE WHEN " + pending + " THEN 1 ELSE 0 END";
        for (String[] row :
                reader.query(
                        "SELECT " + keyColumns() + ", " + hash + flag + " FROM " + table + where,
                        params)) {
            int at = 2 * key.size();
            rows.add(new Row(key(row), row[at], pending != null && "1".equals(row[at + 1])));
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
            shown.add(shown(key.get(i)) + " AS " + name("k" + i));
        }
        String outer =
                IntStream.range(0, key.size())
                        .mapToObj(i -> name("k" + i))
                        .collect(Collectors.joining(", "));
        List<String> params = new ArrayList<>();
        String where = where(range, params);
        String select =
                dialect == Canonical.Dialect.CLICKHOUSE
                        // 18.16 has no window functions: the ordered keys, every step-th kept
                        ? "SELECT "
                                + outer
                                + " FROM (SELECT "
                                + String.join(", ", shown)
                                + " FROM "
                                + table
                                + where
                                + " ORDER BY "
                                + order()
                                + ") WHERE rowNumberInAllBlocks() % "
                                + step
                                + " = "
                                + (step - 1)
                        : "SELECT "
                                + outer
                                + " FROM (SELECT "
                                + String.join(", ", shown)
                                + ", row_number() OVER (ORDER BY "
                                + order()
                                + ") AS "
                                + name("rn")
                                + " FROM "
                                + table
                                + where
                                + ") q WHERE "
                                + Canonical.mod(dialect, name("rn"), String.valueOf(step))
                                + " = 0 ORDER BY "
                                + name("rn");
        List<List<String>> cuts = new ArrayList<>();
        for (String[] row : reader.query(select, params)) {
            cuts.add(List.of(row));
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
                    Canonical.value(dialect, c.type(), c.sql(), Canonical.Form.EXACT)
                            + " AS "
                            + name("_skippr_canonical_" + i));
        }
        for (int i = 0; i < key.size(); i++) {
            columns.add(shown(key.get(i)) + " AS " + name("_skippr_shown_" + i));
        }
        return String.join(", ", columns);
    }

    private Key key(String[] row) {
        List<String> canonical = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            canonical.add(row[i]);
            shown.add(row[key.size() + i]);
        }
        return new Key(canonical, shown, key.stream().map(c -> c.type().kind()).toList());
    }

    private String shown(KeyColumn c) {
        return switch (dialect) {
            case POSTGRES -> c.sql() + "::text";
            case DUCKDB, SNOWFLAKE -> "CAST(" + c.sql() + " AS VARCHAR)";
            case REDSHIFT -> RedshiftCanonical.text(c.sql());
            case BIGQUERY -> BigQueryCanonical.text(c.sql());
            case CLICKHOUSE -> "toString(" + c.sql() + ")";
        };
    }

    /**
     * The column as it orders: texts by their bytes on PostgreSQL (DuckDB's and ClickHouse's
     * order), a uuid by its text on ClickHouse (which orders UUIDs by their two halves).
     */
    private String ordered(KeyColumn c) {
        if (dialect == Canonical.Dialect.CLICKHOUSE && c.type().kind() == DataType.Kind.UUID) {
            return "toString(" + c.sql() + ")";
        }
        return collate(c, c.sql());
    }

    private String collate(KeyColumn c, String sql) {
        return dialect == Canonical.Dialect.POSTGRES && c.type().kind() == DataType.Kind.STRING
                ? sql + " COLLATE \"C\""
                : sql;
    }

    private String name(String alias) {
        return Canonical.name(dialect, alias);
    }

    private String order() {
        return key.stream().map(this::ordered).collect(Collectors.joining(", "));
    }

    private String parameter(KeyColumn c, String value, List<String> params) {
        String bound = reader.bind(value, params);
        if (dialect == Canonical.Dialect.CLICKHOUSE && c.type().kind() == DataType.Kind.UUID) {
            return bound; // compared as text, see ordered()
        }
        return collate(c, "CAST(" + bound + " AS " + c.castType() + ")");
    }

    private String where(KeyRange range, List<String> params) {
        List<String> terms = new ArrayList<>();
        if (range.low() != null) {
            terms.add(compare(range.low(), ">", ">", 0, params));
        }
        if (range.high() != null) {
            terms.add(compare(range.high(), "<", "<=", 0, params));
        }
        return terms.isEmpty() ? "" : " WHERE " + String.join(" AND ", terms);
    }

    /**
     * The key compared with {@code bound} in key order, from column {@code i} on: {@code (a, b) >
     * (x, y)} is {@code a > x OR (a = x AND b > y)}, written out for any database.
     */
    private String compare(
            List<String> bound, String op, String lastOp, int i, List<String> params) {
        KeyColumn c = key.get(i);
        String column = ordered(c);
        if (i == key.size() - 1) {
            return column + " " + lastOp + " " + parameter(c, bound.get(i), params);
        }
        String first = column + " " + op + " " + parameter(c, bound.get(i), params);
        String equal = column + " = " + parameter(c, bound.get(i), params);
        return "("
                + first
                + " OR ("
                + equal
                + " AND "
                + compare(bound, op, lastOp, i + 1, params)
                + "))";
    }
}
