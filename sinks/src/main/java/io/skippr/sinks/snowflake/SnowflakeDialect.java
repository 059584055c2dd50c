package io.skippr.sinks.snowflake;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.TypeChange;
import io.skippr.sinks.staged.StagedParquet;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Snowflake's SQL. Every identifier is quoted, so a name lands exactly as Skippr writes it (tables
 * lower snake_case, columns as the source names them) and is case-sensitive: {@code SELECT * FROM
 * raw."orders"}, not {@code raw.orders}, which Snowflake folds to {@code RAW.ORDERS}. Names hold up
 * to 255 characters. DDL commits by itself ({@link #transactionalDdl}), so commits make theirs
 * before their transaction; keys are not declared (Snowflake enforces none); the catalog is read
 * from {@code INFORMATION_SCHEMA}; merge is one {@code MERGE}; replace deletes and inserts in the
 * commit's transaction.
 */
public final class SnowflakeDialect implements SqlDialect {
    private static final long serialVersionUID = 1L;

    static final SnowflakeDialect QUOTE = new SnowflakeDialect();

    static final int MAX_IDENTIFIER_BYTES = 255;

    /** Snowflake's longest VARCHAR, in bytes (16 MB), and its longest BINARY (8 MB). */
    static final int MAX_VARCHAR_BYTES = 16_777_216;

    static final int MAX_BINARY_BYTES = 8_388_608;

    private static final Pattern NUMBER = Pattern.compile("NUMBER\\((\\d+),(\\d+)\\)");

    @Override
    public int maxIdentifierBytes() {
        return MAX_IDENTIFIER_BYTES;
    }

    @Override
    public String columnType(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "BOOLEAN";
            case INT16 -> "NUMBER(5,0)";
            case INT32 -> "NUMBER(10,0)";
            case INT64 -> "NUMBER(19,0)";
            case FLOAT32, FLOAT64 -> "FLOAT";
            case DECIMAL ->
                    StagedParquet.decimal(type)
                            ? "NUMBER(" + type.precision() + "," + type.scale() + ")"
                            : "VARCHAR";
            case STRING, JSON -> "VARCHAR";
            case UUID -> "VARCHAR(36)";
            case BYTES -> "BINARY";
            case DATE -> "DATE";
            case TIME -> "TIME";
            case TIMESTAMP -> "TIMESTAMP_NTZ";
            case TIMESTAMP_TZ -> "TIMESTAMP_TZ";
        };
    }

    /** Snowflake's string literals read backslash escapes. */
    @Override
    public String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    @Override
    public boolean transactionalDdl() {
        return false;
    }

    @Override
    public boolean savepoints() {
        return false;
    }

    @Override
    public boolean schemaExists(Connection c, String schema) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT 1 FROM INFORMATION_SCHEMA.SCHEMATA WHERE SCHEMA_NAME = ?")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public String createSchema(String schema) {
        return "CREATE SCHEMA IF NOT EXISTS " + quote(schema);
    }

    @Override
    public LinkedHashMap<String, String> columns(Connection c, String schema, String table)
            throws SQLException {
        LinkedHashMap<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION,"
                                + " NUMERIC_SCALE FROM INFORMATION_SCHEMA.COLUMNS"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                + " ORDER BY ORDINAL_POSITION")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    columns.put(
                            rs.getString(1),
                            type(rs.getString(2), rs.getLong(3), rs.getInt(4), rs.getInt(5)));
                }
            }
        }
        return columns.isEmpty() ? null : columns;
    }

    /** A catalog type as {@link #columnType} spells it. */
    static String type(String dataType, long length, int precision, int scale) {
        return switch (dataType) {
            case "NUMBER" -> "NUMBER(" + precision + "," + scale + ")";
            case "TEXT" ->
                    length >= MAX_VARCHAR_BYTES || length == 0
                            ? "VARCHAR"
                            : "VARCHAR(" + length + ")";
            default -> dataType;
        };
    }

    /** Snowflake enforces no key, so a merge needs none: nothing is declared or required. */
    @Override
    public boolean hasUniqueKey(Connection c, String schema, String table, List<String> key) {
        return true;
    }

    @Override
    public String createTable(
            String qualified, List<String> columns, List<String> types, List<String> key) {
        StringBuilder sql =
                new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(qualified).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append(quote(columns.get(i)))
                    .append(' ')
                    .append(types.get(i));
        }
        return sql.append(')').toString();
    }

    /** Safe to repeat: concurrent commits of one table may both add a column. */
    @Override
    public String addColumn(String qualified, String column, String type) {
        return "ALTER TABLE "
                + qualified
                + " ADD COLUMN IF NOT EXISTS "
                + quote(column)
                + " "
                + type;
    }

    @Override
    public String alterColumnType(String qualified, String column, String type) {
        return "ALTER TABLE "
                + qualified
                + " ALTER COLUMN "
                + quote(column)
                + " SET DATA TYPE "
                + type;
    }

    @Override
    public String addPrimaryKey(String qualified, List<String> key) {
        throw new UnsupportedOperationException("Snowflake enforces no key; none is declared");
    }

    /** No staging tables outlive a commit: staged rows wait as files in the stage. */
    @Override
    public List<StagingInfo> stagingTables(Connection c, String schema) {
        return List.of();
    }

    /** Nothing: every DDL statement Skippr runs is safe to repeat and commits by itself. */
    @Override
    public void lockForDdl(Connection c, String schema, String table) {}

    /** Opens the commit's explicit transaction. */
    @Override
    public void beginCommit(Connection c, String qualifiedMarker) throws SQLException {
        String lock = commitLock(qualifiedMarker);
        try (Statement st = c.createStatement()) {
            st.execute("BEGIN TRANSACTION");
            if (lockRow(st, lock)) {
                return;
            }
            // the first commit into the schema: the lock's row, committed before the transaction
            // begins again (in Snowflake a DDL statement commits by itself)
            st.execute("ROLLBACK");
            st.execute(
                    "CREATE TABLE IF NOT EXISTS " + lock + " (\"commits\" NUMBER(19,0) NOT NULL)");
            st.execute(
                    "INSERT INTO "
                            + lock
                            + " SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM "
                            + lock
                            + ")");
            st.execute("COMMIT");
            st.execute("BEGIN TRANSACTION");
            if (!lockRow(st, lock)) {
                throw new SQLException("the commit lock " + lock + " has no row", "XX000");
            }
        }
    }

    /** Updates the commit lock's row; false when the table or its row is not there yet. */
    private static boolean lockRow(Statement st, String lock) throws SQLException {
        try {
            return st.executeUpdate("UPDATE " + lock + " SET \"commits\" = \"commits\" + 1") > 0;
        } catch (SQLException e) {
            if (e.getErrorCode() == OBJECT_DOES_NOT_EXIST) {
                return false;
            }
            throw e;
        }
    }

    /** Snowflake's error code for a table (or other object) that does not exist. */
    static final int OBJECT_DOES_NOT_EXIST = 2003;

    /**
     * The table whose one row a commit updates first, in its transaction, beside {@code
     * qualifiedMarker}: Snowflake's INSERTs do not wait for each other, so two attempts at one
     * commit (a TaskManager cut off from the JobManager but not from Snowflake, and the restarted
     * job) could both find no marker row and both append their rows. An UPDATE waits for another
     * transaction's UPDATE of the same table until it ends, so the second attempt reads the marker
     * table only after the first committed (and finds its marker) or rolled back. Commits into one
     * schema take turns.
     */
    static String commitLock(String qualifiedMarker) {
        String marker = QUOTE.quote(SqlNames.MARKER_TABLE);
        if (!qualifiedMarker.endsWith(marker)) {
            throw new IllegalArgumentException("not a marker table: " + qualifiedMarker);
        }
        return qualifiedMarker.substring(0, qualifiedMarker.length() - marker.length())
                + QUOTE.quote(COMMIT_LOCK);
    }

    static final String COMMIT_LOCK = "_skippr_commit_lock";

    /**
     * Keeps a column that takes every new value; widens a NUMBER to more digits at the same scale
     * and a bounded VARCHAR to VARCHAR (Snowflake changes both in place); refuses anything else.
     */
    @Override
    public TypeChange change(String existing, DataType wanted) {
        String want = columnType(wanted);
        if (existing.equals(want)) {
            return TypeChange.KEEP;
        }
        if (existing.equals("VARCHAR") && want.startsWith("VARCHAR")) {
            return TypeChange.KEEP;
        }
        if (existing.startsWith("VARCHAR(") && want.startsWith("VARCHAR")) {
            return TypeChange.widen(want);
        }
        if (existing.equals("FLOAT")
                && (wanted.kind() == DataType.Kind.INT16 || wanted.kind() == DataType.Kind.INT32)) {
            return TypeChange.KEEP;
        }
        Matcher have = NUMBER.matcher(existing);
        Matcher need = NUMBER.matcher(want);
        if (have.matches() && need.matches()) {
            int p = Integer.parseInt(have.group(1));
            int s = Integer.parseInt(have.group(2));
            int wp = Integer.parseInt(need.group(1));
            int ws = Integer.parseInt(need.group(2));
            if (wp - ws <= p - s && ws <= s) {
                return TypeChange.KEEP;
            }
            if (ws == s && wp <= 38) {
                return TypeChange.widen("NUMBER(" + wp + "," + s + ")");
            }
        }
        return TypeChange.refuse(
                existing
                        + " cannot hold every "
                        + want
                        + " value, and Snowflake changes a column's type only to more digits of"
                        + " the same scale or a longer VARCHAR");
    }

    @Override
    public String evolutionPolicy() {
        return "Skippr adds columns and widens NUMBER(p,s) to more digits of the same scale and"
                + " VARCHAR(n) to VARCHAR";
    }

    /**
     * One MERGE: the winning row of each key (the last by {@code orderBy}) deletes the target row,
     * updates it, or is inserted, unless the target row is newer by the cursor.
     */
    @Override
    public String merge(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        String order =
                orderBy.stream().map(o -> o + " DESC NULLS LAST").collect(Collectors.joining(", "));
        String rank = quote("_skippr_rank_in_key");
        String match =
                key.stream()
                        .map(k -> "t." + quote(k) + " = w." + quote(k))
                        .collect(Collectors.joining(" AND "));
        List<String> all = new ArrayList<>(columns);
        all.add(SqlNames.ID);
        all.add(SqlNames.SYNCED_AT);
        String guard = cursor == null ? "" : " AND " + notOlder("w", cursor);
        String deleted = "w." + quote(SqlNames.DELETE_ROW);
        return "MERGE INTO "
                + target
                + " t USING (SELECT * FROM (SELECT l.*, ROW_NUMBER() OVER (PARTITION BY "
                + quoteAll(key)
                + " ORDER BY "
                + order
                + ") AS "
                + rank
                + " FROM ("
                + staged
                + ") l) r WHERE "
                + rank
                + " = 1) w ON "
                + match
                + " WHEN MATCHED AND "
                + deleted
                + guard
                + " THEN DELETE WHEN MATCHED AND NOT "
                + deleted
                + guard
                + " THEN UPDATE SET "
                + all.stream()
                        .map(c -> quote(c) + " = w." + quote(c))
                        .collect(Collectors.joining(", "))
                + " WHEN NOT MATCHED AND NOT "
                + deleted
                + " THEN INSERT ("
                + quoteAll(all)
                + ") VALUES ("
                + all.stream().map(c -> "w." + quote(c)).collect(Collectors.joining(", "))
                + ")";
    }

    /** DELETE, in the commit's transaction. */
    @Override
    public String emptyTable(String qualified) {
        return "DELETE FROM " + qualified;
    }

    /** Not used by commits (a swap is DDL, which would commit their transaction early). */
    @Override
    public void swap(Connection c, String schema, String table, String replacement)
            throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(
                    "ALTER TABLE "
                            + qualified(schema, replacement)
                            + " SWAP WITH "
                            + qualified(schema, table));
            st.execute("DROP TABLE IF EXISTS " + qualified(schema, replacement));
        }
    }

    @Override
    public boolean hasDependents(Connection c, String schema, String table) {
        return false;
    }

    /** Quoted lower-case names, as the marker table's statements name its columns. */
    @Override
    public String markerTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (\"pipeline\" VARCHAR NOT NULL, \"sink\" VARCHAR NOT NULL,"
                + " \"run\" NUMBER(19,0) NOT NULL, \"checkpoint\" NUMBER(19,0) NOT NULL,"
                + " \"subtask\" NUMBER(10,0) NOT NULL, \"parallelism\" NUMBER(10,0) NOT NULL,"
                + " \"bounded\" BOOLEAN NOT NULL, \"write_mode\" VARCHAR(16) NOT NULL,"
                + " \"rows\" NUMBER(19,0) NOT NULL, \"positions\" VARCHAR)";
    }

    /**
     * The loads table ({@code LoadsTable}), its columns named as the marker table's; {@code
     * committed_at} is the inserting statement's {@code CURRENT_TIMESTAMP}, in the session's UTC
     * ({@link SnowflakeDatabase#connect}). No key is declared (Snowflake enforces none).
     */
    @Override
    public String loadsTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (\"pipeline\" VARCHAR NOT NULL, \"sink\" VARCHAR NOT NULL,"
                + " \"stream\" VARCHAR NOT NULL, \"run\" NUMBER(19,0) NOT NULL,"
                + " \"checkpoint\" NUMBER(19,0) NOT NULL, \"subtask\" NUMBER(10,0) NOT NULL,"
                + " \"mode\" VARCHAR(16) NOT NULL, \"rows\" NUMBER(19,0) NOT NULL,"
                + " \"checksum\" NUMBER(19,0) NOT NULL, \"position_type\" VARCHAR,"
                + " \"position_from\" VARCHAR, \"position_to\" VARCHAR,"
                + " \"committed_at\" TIMESTAMP_TZ NOT NULL DEFAULT CURRENT_TIMESTAMP)";
    }
}
