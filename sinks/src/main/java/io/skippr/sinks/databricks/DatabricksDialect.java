package io.skippr.sinks.databricks;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.TypeChange;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;

/**
 * Databricks SQL on Delta tables in Unity Catalog. Names are backticked ({@code `a``b`}); Unity
 * Catalog keeps table and schema names in lower case and compares column names without case, so
 * Skippr gives every name in lower case. String literals are Spark's (backslash escapes). Every
 * statement commits alone, so what the SQL family runs in one transaction is made repeatable here:
 * tables are created {@code IF NOT EXISTS}, an append inserts the staged rows that are not in the
 * target yet ({@link #append}), a merge is one {@code MERGE INTO}, and a replace is one {@code
 * CREATE OR REPLACE TABLE … AS SELECT} ({@link #swap}). Delta enforces no keys, so none is
 * declared.
 */
public final class DatabricksDialect implements SqlDialect {
    private static final long serialVersionUID = 1L;

    /** Unity Catalog's longest table and column name, in characters (bytes for ASCII names). */
    static final int MAX_IDENTIFIER_BYTES = 255;

    static final int MAX_DECIMAL_PRECISION = 38;

    @Override
    public String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    @Override
    public String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    @Override
    public int maxIdentifierBytes() {
        return MAX_IDENTIFIER_BYTES;
    }

    @Override
    public SqlNames names() {
        return new SqlNames(MAX_IDENTIFIER_BYTES, true);
    }

    @Override
    public String columnType(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "BOOLEAN";
            case INT16 -> "SMALLINT";
            case INT32 -> "INT";
            case INT64 -> "BIGINT";
            case FLOAT32 -> "FLOAT";
            case FLOAT64 -> "DOUBLE";
            case DECIMAL ->
                    decimal(type)
                            ? "DECIMAL(" + type.precision() + "," + type.scale() + ")"
                            : "STRING";
            case STRING, JSON, UUID, TIME -> "STRING";
            case BYTES -> "BINARY";
            case DATE -> "DATE";
            case TIMESTAMP -> "TIMESTAMP_NTZ";
            case TIMESTAMP_TZ -> "TIMESTAMP";
        };
    }

    /** Whether a decimal is stored as DECIMAL(p,s); else as its exact text. */
    static boolean decimal(DataType type) {
        return type.isDecimalWithin(MAX_DECIMAL_PRECISION);
    }

    /**
     * Always false, so the schema is created with {@code CREATE SCHEMA IF NOT EXISTS}, which does
     * nothing when it exists (the Statement Execution API has no catalog call Skippr needs).
     */
    @Override
    public boolean schemaExists(Connection c, String schema) {
        return false;
    }

    @Override
    public String createSchema(String schema) {
        return "CREATE SCHEMA IF NOT EXISTS " + quote(schema);
    }

    /** From the manifest of {@code SELECT * … LIMIT 0}; null when the table does not exist. */
    @Override
    public LinkedHashMap<String, String> columns(Connection c, String schema, String table)
            throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT * FROM " + qualified(schema, table) + " LIMIT 0")) {
            ResultSetMetaData meta = rs.getMetaData();
            LinkedHashMap<String, String> columns = new LinkedHashMap<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                columns.put(
                        meta.getColumnLabel(i).toLowerCase(Locale.ROOT),
                        normalise(meta.getColumnTypeName(i)));
            }
            return columns;
        } catch (SQLException e) {
            if (notFound(e)) {
                return null;
            }
            throw e;
        }
    }

    static boolean notFound(SQLException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        return m.contains("TABLE_OR_VIEW_NOT_FOUND") || m.contains("SCHEMA_NOT_FOUND");
    }

    /** A type as {@link #columnType} spells it. */
    static String normalise(String type) {
        String t = type.toUpperCase(Locale.ROOT).replace(" ", "");
        return switch (t) {
            case "INTEGER" -> "INT";
            case "LONG" -> "BIGINT";
            case "SHORT" -> "SMALLINT";
            case "REAL" -> "FLOAT";
            default -> t;
        };
    }

    /** Delta enforces no key; merges match on the key columns. */
    @Override
    public boolean hasUniqueKey(Connection c, String schema, String table, List<String> key) {
        return true;
    }

    /** No staging tables outlive a commit's repeats: staged rows wait as files in the volume. */
    @Override
    public List<StagingInfo> stagingTables(Connection c, String schema) {
        return List.of();
    }

    /** Nothing: one committer per pipeline and sink changes its tables' DDL. */
    @Override
    public void lockForDdl(Connection c, String schema, String table) {}

    @Override
    public boolean savepoints() {
        return false;
    }

    /** Types widen where Delta's type widening or a safe cast allows; the rest is refused. */
    @Override
    public TypeChange change(String existing, DataType wanted) {
        String have = normalise(existing);
        String want = columnType(wanted);
        if (have.equals(want)) {
            return TypeChange.KEEP;
        }
        if (have.equals("STRING")) {
            return TypeChange.KEEP; // every value Skippr stages has a text form
        }
        int haveRank = integerRank(have);
        int wantRank = integerRank(want);
        if (haveRank > 0 && wantRank > 0) {
            return wantRank <= haveRank ? TypeChange.KEEP : refuse(existing, wanted);
        }
        if (have.equals("DOUBLE") && (wantRank > 0 && wantRank < 3 || want.equals("FLOAT"))) {
            return TypeChange.KEEP;
        }
        return refuse(existing, wanted);
    }

    private static int integerRank(String type) {
        return switch (type) {
            case "SMALLINT" -> 1;
            case "INT" -> 2;
            case "BIGINT" -> 3;
            default -> 0;
        };
    }

    private TypeChange refuse(String existing, DataType wanted) {
        return TypeChange.refuse(
                existing
                        + " cannot hold every "
                        + columnType(wanted)
                        + " value, and Skippr does not change a Delta column's type");
    }

    @Override
    public String evolutionPolicy() {
        return "Skippr adds columns (ALTER TABLE … ADD COLUMNS); a column keeps its type where that"
                + " holds every new value (BIGINT takes INT and SMALLINT, DOUBLE takes FLOAT, STRING"
                + " takes anything) and any other change is refused";
    }

    /** Never used: {@link #change} widens nothing. */
    @Override
    public String alterColumnType(String qualified, String column, String type) {
        return "ALTER TABLE " + qualified + " ALTER COLUMN " + quote(column) + " TYPE " + type;
    }

    @Override
    public String addColumn(String qualified, String column, String type) {
        return "ALTER TABLE " + qualified + " ADD COLUMNS (" + quote(column) + " " + type + ")";
    }

    @Override
    public String addPrimaryKey(String qualified, List<String> key) {
        throw new UnsupportedOperationException("Delta enforces no key; none is declared");
    }

    /** Comments are not kept: a staged set's comment lives in its manifest. */
    @Override
    public String commentOnTable(String qualified, String comment) {
        throw new UnsupportedOperationException("Skippr sets no table comments on Databricks");
    }

    /** {@code CREATE TABLE IF NOT EXISTS … USING DELTA}: a repeated commit finds its table. */
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
        return sql.append(") USING DELTA").toString();
    }

    /** {@link SqlDialect#appendNewIds}: the commit is not one transaction. */
    @Override
    public String append(String target, List<String> columns, String select) {
        return appendNewIds(target, columns, select);
    }

    /**
     * One {@code MERGE INTO}: the winning row of each key (the last by {@code orderBy}) deletes the
     * key's row, updates it (unless older by the cursor) or is inserted. Applying the same winners
     * twice leaves the same table, so a repeated commit converges.
     */
    @Override
    public String merge(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        return mergeWinners(target, staged, key, columns, orderBy, cursor);
    }

    @Override
    public String emptyTable(String qualified) {
        return "DELETE FROM " + qualified;
    }

    /**
     * {@code CREATE OR REPLACE TABLE … AS SELECT * FROM} the replacement, which Delta commits as
     * one new version of the table (readers see the old rows or the new ones, and the table keeps
     * its history and grants), then drops the replacement. A repeat after a stop between the two
     * builds the same replacement again and converges.
     */
    @Override
    public void swap(Connection c, String schema, String table, String replacement)
            throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(
                    "CREATE OR REPLACE TABLE "
                            + qualified(schema, table)
                            + " AS SELECT * FROM "
                            + qualified(schema, replacement));
            st.execute("DROP TABLE IF EXISTS " + qualified(schema, replacement));
        }
    }

    /** Views in Unity Catalog resolve their tables by name at query time: none holds a table. */
    @Override
    public boolean hasDependents(Connection c, String schema, String table) {
        return false;
    }

    @Override
    public String markerTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (pipeline STRING NOT NULL, sink STRING NOT NULL, run BIGINT NOT NULL,"
                + " checkpoint BIGINT NOT NULL, subtask INT NOT NULL, parallelism INT NOT NULL,"
                + " bounded BOOLEAN NOT NULL, write_mode STRING NOT NULL, rows BIGINT NOT NULL,"
                + " positions STRING) USING DELTA";
    }
}
