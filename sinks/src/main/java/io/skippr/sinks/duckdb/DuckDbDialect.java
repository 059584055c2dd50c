package io.skippr.sinks.duckdb;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.TypeChange;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * DuckDB's SQL: quoting, the type mapping, catalog queries over {@code duckdb_tables()} and {@code
 * duckdb_columns()}, the schema evolution policy, the upsert ({@code MERGE INTO}) and the table
 * swap (drop and rename in the commit transaction). Column types are spelled as {@code
 * duckdb_columns().data_type} prints them, so a target column compares equal to the type a stream
 * asks for.
 */
public final class DuckDbDialect implements SqlDialect {
    private static final long serialVersionUID = 1L;

    /** DuckDB has no identifier limit worth the name; names are kept readable below this. */
    static final int MAX_IDENTIFIER_BYTES = 255;

    /** DECIMAL's largest precision; wider or unbounded decimals are stored as exact text. */
    static final int MAX_DECIMAL_PRECISION = 38;

    private static final Pattern DECIMAL = Pattern.compile("DECIMAL\\((\\d+),(\\d+)\\)");

    @Override
    public int maxIdentifierBytes() {
        return MAX_IDENTIFIER_BYTES;
    }

    @Override
    public String columnType(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "BOOLEAN";
            case INT16 -> "SMALLINT";
            case INT32 -> "INTEGER";
            case INT64 -> "BIGINT";
            case FLOAT32 -> "FLOAT";
            case FLOAT64 -> "DOUBLE";
            case DECIMAL -> decimal(type.precision(), type.scale());
            case STRING -> "VARCHAR";
            case JSON -> "JSON";
            case UUID -> "UUID";
            case BYTES -> "BLOB";
            case DATE -> "DATE";
            case TIME -> "TIME";
            case TIMESTAMP -> "TIMESTAMP";
            case TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
        };
    }

    /** {@code DECIMAL(p,s)} for 1 ≤ p ≤ 38, else VARCHAR holding the exact plain text. */
    static String decimal(int precision, int scale) {
        return isDecimal(precision, scale) ? "DECIMAL(" + precision + "," + scale + ")" : "VARCHAR";
    }

    static boolean isDecimal(int precision, int scale) {
        return precision >= 1
                && precision <= MAX_DECIMAL_PRECISION
                && scale >= 0
                && scale <= precision;
    }

    @Override
    public boolean schemaExists(Connection c, String schema) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT 1 FROM duckdb_schemas() WHERE database_name = current_database()"
                                + " AND schema_name = ?")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public LinkedHashMap<String, String> columns(Connection c, String schema, String table)
            throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT column_name, data_type FROM duckdb_columns()"
                                + " WHERE database_name = current_database() AND schema_name = ?"
                                + " AND table_name = ? ORDER BY column_index")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                LinkedHashMap<String, String> columns = null;
                while (rs.next()) {
                    if (columns == null) {
                        columns = new LinkedHashMap<>();
                    }
                    columns.put(rs.getString(1), rs.getString(2));
                }
                return columns; // a DuckDB table has at least one column: none means no table
            }
        }
    }

    /** Now, as a literal: {@code current_timestamp} is the start of the transaction. */
    @Override
    public String commitTime() {
        return "TIMESTAMPTZ '" + java.time.Instant.now() + "'";
    }

    /** CHECK, foreign key and unique constraints, NOT NULL outside the primary key. */
    @Override
    public boolean hasOwnRules(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT count(*) FROM duckdb_constraints() k"
                                + " WHERE k.database_name = current_database()"
                                + " AND k.schema_name = ? AND k.table_name = ?"
                                + " AND (k.constraint_type IN ('CHECK', 'FOREIGN KEY', 'UNIQUE')"
                                + " OR (k.constraint_type = 'NOT NULL' AND NOT EXISTS (SELECT 1"
                                + " FROM duckdb_constraints() p"
                                + " WHERE p.database_name = k.database_name"
                                + " AND p.schema_name = k.schema_name"
                                + " AND p.table_name = k.table_name"
                                + " AND p.constraint_type = 'PRIMARY KEY'"
                                + " AND list_has_all(p.constraint_column_names,"
                                + " k.constraint_column_names))))")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    /** DuckDB has no savepoints: each try of a probe is a transaction of its own. */
    @Override
    public boolean savepoints() {
        return false;
    }

    @Override
    public boolean hasUniqueKey(Connection c, String schema, String table, List<String> key)
            throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT constraint_column_names FROM duckdb_constraints()"
                                + " WHERE database_name = current_database() AND schema_name = ?"
                                + " AND table_name = ? AND constraint_type IN ('PRIMARY KEY',"
                                + " 'UNIQUE')")) {
            st.setString(1, schema);
            st.setString(2, table);
            Set<String> wanted = new HashSet<>(key);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Array names = rs.getArray(1);
                    Set<String> have = new HashSet<>();
                    for (Object name : (Object[]) names.getArray()) {
                        have.add(String.valueOf(name));
                    }
                    if (have.equals(wanted)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    @Override
    public List<StagingInfo> stagingTables(Connection c, String schema) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT table_name, comment FROM duckdb_tables()"
                                + " WHERE database_name = current_database() AND schema_name = ?"
                                + " AND starts_with(table_name, ?) ORDER BY table_name")) {
            st.setString(1, schema);
            st.setString(2, SqlNames.STAGING_PREFIX);
            List<StagingInfo> out = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(new StagingInfo(rs.getString(1), rs.getString(2)));
                }
            }
            return out;
        }
    }

    /**
     * Nothing to do in SQL: DuckDB has one writing process per database, and within it {@link
     * DuckDbInstances} already runs one explicit transaction at a time per database (from {@code
     * setAutoCommit(false)} to {@code setAutoCommit(true)}), so DDL of two commits never races.
     */
    @Override
    public void lockForDdl(Connection c, String schema, String table) {}

    /**
     * The schema evolution policy. A column keeps its type when it holds every value of the new one
     * (VARCHAR takes anything, BIGINT takes INTEGER, a wide enough DECIMAL takes the narrower); it
     * is widened along SMALLINT → INTEGER → BIGINT → DECIMAL(p,0) (p ≤ 38), FLOAT → DOUBLE (also
     * for SMALLINT and INTEGER), DECIMAL(p,s) → a DECIMAL with enough digits on both sides of the
     * point while that fits 38 digits; any other change is refused.
     */
    @Override
    public TypeChange change(String existing, DataType wanted) {
        String have = existing.toUpperCase(Locale.ROOT).trim();
        String want = columnType(wanted);
        if (have.equals(want) || have.equals("VARCHAR")) {
            return TypeChange.KEEP;
        }
        int haveDigits = integerDigits(have);
        Matcher haveDecimal = DECIMAL.matcher(have);
        switch (wanted.kind()) {
            case INT16, INT32, INT64, DECIMAL -> {
                int[] w = digits(wanted);
                if (w == null) {
                    return refuse(existing, wanted); // wants exact text: only VARCHAR holds it
                }
                if (haveDecimal.matches()) {
                    int p = Integer.parseInt(haveDecimal.group(1));
                    int s = Integer.parseInt(haveDecimal.group(2));
                    if (w[0] <= p - s && w[1] <= s) {
                        return TypeChange.KEEP;
                    }
                    int scale = Math.max(s, w[1]);
                    return widenDecimal(Math.max(p - s, w[0]) + scale, scale, existing, wanted);
                }
                if (haveDigits > 0) {
                    if (wanted.kind() != DataType.Kind.DECIMAL) {
                        return integerDigits(want) <= haveDigits
                                ? TypeChange.KEEP
                                : TypeChange.widen(want);
                    }
                    return widenDecimal(
                            Math.max(haveDigits + 1, w[0]) + w[1], w[1], existing, wanted);
                }
                if (have.equals("DOUBLE")
                        && (wanted.kind() == DataType.Kind.INT16
                                || wanted.kind() == DataType.Kind.INT32)) {
                    return TypeChange.KEEP;
                }
                if (have.equals("FLOAT") && wanted.kind() == DataType.Kind.INT16) {
                    return TypeChange.KEEP;
                }
                return refuse(existing, wanted);
            }
            case FLOAT32, FLOAT64 -> {
                if (have.equals("DOUBLE")) {
                    return TypeChange.KEEP;
                }
                if (have.equals("FLOAT") || have.equals("SMALLINT") || have.equals("INTEGER")) {
                    return wanted.kind() == DataType.Kind.FLOAT32 && have.equals("SMALLINT")
                            ? TypeChange.widen("FLOAT")
                            : TypeChange.widen("DOUBLE");
                }
                return refuse(existing, wanted);
            }
            default -> {
                return refuse(existing, wanted);
            }
        }
    }

    private TypeChange widenDecimal(int precision, int scale, String existing, DataType wanted) {
        return precision <= MAX_DECIMAL_PRECISION
                ? TypeChange.widen(decimal(precision, scale))
                : refuse(existing, wanted);
    }

    private TypeChange refuse(String existing, DataType wanted) {
        return TypeChange.refuse(
                existing + " cannot hold every " + columnType(wanted) + " value without loss");
    }

    /** Decimal digits an integer type holds in full; 0 for other types. */
    private static int integerDigits(String type) {
        return switch (type) {
            case "SMALLINT" -> 4;
            case "INTEGER" -> 9;
            case "BIGINT" -> 18;
            case "HUGEINT" -> 38;
            default -> 0;
        };
    }

    /** Integer and fraction digits a value of {@code type} may have; null if not a DECIMAL. */
    private static int[] digits(DataType type) {
        return switch (type.kind()) {
            case INT16 -> new int[] {5, 0};
            case INT32 -> new int[] {10, 0};
            case INT64 -> new int[] {19, 0};
            default ->
                    isDecimal(type.precision(), type.scale())
                            ? new int[] {type.precision() - type.scale(), type.scale()}
                            : null;
        };
    }

    @Override
    public String alterColumnType(String qualified, String column, String type) {
        return "ALTER TABLE " + qualified + " ALTER COLUMN " + quote(column) + " TYPE " + type;
    }

    /** The rank of a staged row among those of its key in {@link #merge}: 1 is the latest. */
    private static final String LATEST = "_skippr_latest";

    /** One {@code MERGE INTO}: the latest row per key deletes, updates or inserts. */
    @Override
    public String merge(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        String keys = quoteAll(key);
        String order =
                orderBy.stream().map(o -> o + " DESC NULLS LAST").collect(Collectors.joining(", "));
        List<String> all = new ArrayList<>(columns);
        all.add(SqlNames.ID);
        all.add(SqlNames.SYNCED_AT);
        String match =
                key.stream()
                        .map(k -> "t." + quote(k) + " = l." + quote(k))
                        .collect(Collectors.joining(" AND "));
        List<String> others = all.stream().filter(c -> !key.contains(c)).toList();
        String deleted = "l." + quote(SqlNames.DELETE_ROW);
        String matched =
                cursor == null ? " WHEN MATCHED" : " WHEN MATCHED AND " + notOlder("l", cursor);
        return "MERGE INTO "
                + target
                + " t USING (WITH staged AS ("
                + staged
                // the latest row per key by row_number, not DISTINCT ON: DuckDB plans that as
                // arg_max, which turns a FLOAT -0.0 into 0.0 (DOUBLE keeps it)
                + ") SELECT * EXCLUDE ("
                + quote(LATEST)
                + ") FROM (SELECT *, row_number() OVER (PARTITION BY "
                + keys
                + " ORDER BY "
                + order
                + ") AS "
                + quote(LATEST)
                + " FROM staged) WHERE "
                + quote(LATEST)
                + " = 1) l ON ("
                + match
                + ")"
                + matched
                + " AND "
                + deleted
                + " THEN DELETE"
                + (others.isEmpty()
                        ? ""
                        : matched
                                + " THEN UPDATE SET "
                                + others.stream()
                                        .map(c -> quote(c) + " = l." + quote(c))
                                        .collect(Collectors.joining(", ")))
                + " WHEN NOT MATCHED AND NOT "
                + deleted
                + " THEN INSERT ("
                + quoteAll(all)
                + ") VALUES ("
                + all.stream().map(c -> "l." + quote(c)).collect(Collectors.joining(", "))
                + ")";
    }

    /** DuckDB has no grants or owners to keep: drop the old table, rename the new one. */
    @Override
    public void swap(Connection c, String schema, String table, String replacement)
            throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + qualified(schema, table));
            st.execute(
                    "ALTER TABLE " + qualified(schema, replacement) + " RENAME TO " + quote(table));
        }
    }

    /** DuckDB binds views by name when they run: a dropped and renamed table keeps them working. */
    @Override
    public boolean hasDependents(Connection c, String schema, String table) {
        return false;
    }

    @Override
    public String loadsTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (pipeline VARCHAR NOT NULL, sink VARCHAR NOT NULL, stream VARCHAR NOT NULL,"
                + " run BIGINT NOT NULL, checkpoint BIGINT NOT NULL, subtask INTEGER NOT NULL,"
                + " mode VARCHAR NOT NULL, rows BIGINT NOT NULL, checksum BIGINT NOT NULL,"
                + " position_type VARCHAR, position_from VARCHAR, position_to VARCHAR,"
                + " committed_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT current_timestamp,"
                + " PRIMARY KEY (pipeline, sink, run, checkpoint, subtask, stream))";
    }

    @Override
    public String markerTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (pipeline VARCHAR NOT NULL, sink VARCHAR NOT NULL, run BIGINT NOT NULL,"
                + " checkpoint BIGINT NOT NULL, subtask INTEGER NOT NULL,"
                + " parallelism INTEGER NOT NULL, bounded BOOLEAN NOT NULL,"
                + " write_mode VARCHAR NOT NULL, rows BIGINT NOT NULL, positions VARCHAR NOT NULL,"
                + " committed_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT current_timestamp,"
                + " PRIMARY KEY (pipeline, sink, run, checkpoint, subtask))";
    }
}
