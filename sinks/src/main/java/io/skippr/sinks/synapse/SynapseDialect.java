package io.skippr.sinks.synapse;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.TypeChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The T-SQL of a Synapse dedicated SQL pool, and only what it runs: no DDL inside a user
 * transaction (so the commit's DDL runs before it, {@link #transactionalDdl}), no {@code DROP TABLE
 * IF EXISTS}, no savepoints, no enforced keys (none is declared; a merge is delete and insert), no
 * {@code NULLS LAST} (T-SQL sorts NULL first ascending, last descending). Names are quoted with
 * double quotes (the driver's sessions run with QUOTED_IDENTIFIER ON) and hold up to 128
 * characters. Text is NVARCHAR(4000), the longest a clustered columnstore table keeps in its column
 * segments; tables are created {@code CLUSTERED COLUMNSTORE INDEX} and distributed round-robin, or
 * by hash of the first key column where {@code distribution: hash}; staging tables are round-robin
 * heaps, the fastest to load.
 */
public final class SynapseDialect implements SqlDialect {
    private static final long serialVersionUID = 1L;

    static final int MAX_IDENTIFIER_BYTES = 128;

    /** The longest NVARCHAR(n), in UTF-16 code units, and the longest VARBINARY(n). */
    static final int MAX_NVARCHAR = 4000;

    static final int MAX_VARBINARY = 8000;

    static final int MAX_DECIMAL_PRECISION = 38;

    static final String TEXT = "NVARCHAR(" + MAX_NVARCHAR + ")";

    private static final Pattern NVARCHAR = Pattern.compile("NVARCHAR\\((\\d+)\\)");
    private static final Pattern DECIMAL = Pattern.compile("DECIMAL\\((\\d+),(\\d+)\\)");

    private final boolean hashDistribution;

    /**
     * @param hashDistribution whether tables with a key are distributed by hash of it
     */
    public SynapseDialect(boolean hashDistribution) {
        this.hashDistribution = hashDistribution;
    }

    @Override
    public int maxIdentifierBytes() {
        return MAX_IDENTIFIER_BYTES;
    }

    @Override
    public String columnType(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "BIT";
            case INT16 -> "SMALLINT";
            case INT32 -> "INT";
            case INT64 -> "BIGINT";
            case FLOAT32 -> "REAL";
            case FLOAT64 -> "FLOAT";
            case DECIMAL ->
                    decimal(type) ? "DECIMAL(" + type.precision() + "," + type.scale() + ")" : TEXT;
            case STRING, JSON -> TEXT;
            case UUID -> "UNIQUEIDENTIFIER";
            case BYTES -> "VARBINARY(" + MAX_VARBINARY + ")";
            case DATE -> "DATE";
            case TIME -> "TIME(6)";
            case TIMESTAMP -> "DATETIME2(6)";
            case TIMESTAMP_TZ -> "DATETIMEOFFSET(6)";
        };
    }

    /** Whether a decimal is stored as DECIMAL(p,s); else as its exact text. */
    static boolean decimal(DataType type) {
        return type.isDecimalWithin(MAX_DECIMAL_PRECISION);
    }

    /** Synapse refuses DDL inside a user transaction. */
    @Override
    public boolean transactionalDdl() {
        return false;
    }

    /** Synapse has no savepoints. */
    @Override
    public boolean savepoints() {
        return false;
    }

    /** A Unicode string literal. */
    @Override
    public String literal(String text) {
        return "N'" + text.replace("'", "''") + "'";
    }

    @Override
    public String dropTable(String qualified) {
        return "IF OBJECT_ID(" + literal(qualified) + ", N'U') IS NOT NULL DROP TABLE " + qualified;
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
    public LinkedHashMap<String, String> columns(Connection c, String schema, String table)
            throws SQLException {
        LinkedHashMap<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH,"
                                + " NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION"
                                + " FROM INFORMATION_SCHEMA.COLUMNS"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                + " ORDER BY ORDINAL_POSITION")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    columns.put(
                            rs.getString(1),
                            type(
                                    rs.getString(2),
                                    (Integer) rs.getObject(3, Integer.class),
                                    (Integer) rs.getObject(4, Integer.class),
                                    (Integer) rs.getObject(5, Integer.class),
                                    (Integer) rs.getObject(6, Integer.class)));
                }
            }
        }
        return columns.isEmpty() ? null : columns;
    }

    /** A type as the catalog describes it, spelled as {@link #columnType} spells it. */
    static String type(
            String dataType, Integer length, Integer precision, Integer scale, Integer fraction) {
        String t = dataType.toUpperCase(Locale.ROOT);
        return switch (t) {
            case "NVARCHAR", "VARCHAR", "NCHAR", "CHAR", "VARBINARY", "BINARY" ->
                    t + "(" + (length == null || length < 0 ? "MAX" : length) + ")";
            case "DECIMAL", "NUMERIC" -> "DECIMAL(" + precision + "," + scale + ")";
            case "TIME", "DATETIME2", "DATETIMEOFFSET" ->
                    t + "(" + (fraction == null ? 7 : fraction) + ")";
            default -> t;
        };
    }

    /** Synapse enforces no key: a merge deletes and inserts, so none is needed. */
    @Override
    public boolean hasUniqueKey(Connection c, String schema, String table, List<String> key) {
        return true;
    }

    /** No staging tables outlive a commit: staged rows wait as files ({@code StagedFiles}). */
    @Override
    public List<StagingInfo> stagingTables(Connection c, String schema) {
        return List.of();
    }

    /** Nothing: DDL runs outside transactions, each statement safe to repeat. */
    @Override
    public void lockForDdl(Connection c, String schema, String table) {}

    /**
     * Columns only, no key (Synapse enforces none); a staging table is a round-robin heap, created
     * only if missing (the commit's DDL runs before its transaction, so a retried commit finds the
     * empty table its first attempt created), any other a clustered columnstore, distributed by
     * hash of its first key column where so configured.
     */
    @Override
    public String createTable(
            String qualified, List<String> columns, List<String> types, List<String> key) {
        String body = SqlDialect.super.createTable(qualified, columns, types, List.of());
        boolean staging =
                qualified.startsWith(SqlNames.STAGING_PREFIX, qualified.lastIndexOf(".\"") + 2);
        String distribution =
                hashDistribution && !key.isEmpty()
                        ? "HASH(" + quote(key.get(0)) + ")"
                        : "ROUND_ROBIN";
        String with =
                " WITH (DISTRIBUTION = "
                        + distribution
                        + (staging ? ", HEAP)" : ", CLUSTERED COLUMNSTORE INDEX)");
        // a commit retried after its DDL ran finds its (empty) staging table there
        return staging
                ? "IF OBJECT_ID(" + literal(qualified) + ", N'U') IS NULL " + body + with
                : body + with;
    }

    /** T-SQL's ADD has no COLUMN keyword. */
    @Override
    public String addColumn(String qualified, String column, String type) {
        return "ALTER TABLE " + qualified + " ADD " + quote(column) + " " + type;
    }

    /** Never used: {@link #change} widens nothing. */
    @Override
    public String alterColumnType(String qualified, String column, String type) {
        return "ALTER TABLE " + qualified + " ALTER COLUMN " + quote(column) + " " + type;
    }

    @Override
    public String addPrimaryKey(String qualified, List<String> key) {
        throw new UnsupportedOperationException("Synapse enforces no key; none is declared");
    }

    /**
     * The schema evolution policy: a column keeps its type where it holds every value of the new
     * one (a wider integer, FLOAT for REAL and small integers, a DECIMAL with room on both sides, a
     * long enough NVARCHAR); any other change is refused, since a column of a columnstore table
     * cannot change type in place.
     */
    @Override
    public TypeChange change(String existing, DataType wanted) {
        String have = existing.toUpperCase(Locale.ROOT);
        String want = columnType(wanted);
        if (have.equals(want)) {
            return TypeChange.KEEP;
        }
        Matcher nvarchar = NVARCHAR.matcher(have);
        Matcher wantNvarchar = NVARCHAR.matcher(want);
        if (have.equals("NVARCHAR(MAX)") && wantNvarchar.matches()
                || nvarchar.matches()
                        && wantNvarchar.matches()
                        && Integer.parseInt(nvarchar.group(1))
                                >= Integer.parseInt(wantNvarchar.group(1))) {
            return TypeChange.KEEP;
        }
        int haveDigits = integerDigits(have);
        int wantDigits = integerDigits(want);
        if (haveDigits > 0 && wantDigits > 0) {
            return wantDigits <= haveDigits ? TypeChange.KEEP : refuse(existing, wanted);
        }
        Matcher decimal = DECIMAL.matcher(have);
        if (decimal.matches()) {
            int p = Integer.parseInt(decimal.group(1));
            int s = Integer.parseInt(decimal.group(2));
            int[] w =
                    switch (wanted.kind()) {
                        case INT16 -> new int[] {5, 0};
                        case INT32 -> new int[] {10, 0};
                        case INT64 -> new int[] {19, 0};
                        case DECIMAL ->
                                decimal(wanted)
                                        ? new int[] {
                                            wanted.precision() - wanted.scale(), wanted.scale()
                                        }
                                        : null;
                        default -> null;
                    };
            return w != null && w[0] <= p - s && w[1] <= s
                    ? TypeChange.KEEP
                    : refuse(existing, wanted);
        }
        if (have.equals("FLOAT")
                && (wanted.kind() == DataType.Kind.FLOAT32
                        || wanted.kind() == DataType.Kind.INT16
                        || wanted.kind() == DataType.Kind.INT32)) {
            return TypeChange.KEEP;
        }
        return refuse(existing, wanted);
    }

    private TypeChange refuse(String existing, DataType wanted) {
        return TypeChange.refuse(
                existing
                        + " cannot hold every "
                        + columnType(wanted)
                        + " value, and Skippr does not change a column's type in a Synapse"
                        + " columnstore table");
    }

    /** Decimal digits an integer type holds in full: 4, 9, 18; 0 for other types. */
    private static int integerDigits(String type) {
        return switch (type) {
            case "SMALLINT" -> 4;
            case "INT" -> 9;
            case "BIGINT" -> 18;
            default -> 0;
        };
    }

    @Override
    public String evolutionPolicy() {
        return "Skippr adds columns; a column keeps its type where that holds every new value"
                + " (BIGINT takes INT, FLOAT takes REAL, a longer NVARCHAR takes a shorter one)"
                + " and any other change is refused";
    }

    @Override
    public String merge(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        throw new UnsupportedOperationException("Synapse merges in two statements");
    }

    /**
     * A merge as delete and insert, each over the winning row of every key (the last by {@code
     * orderBy}): the target rows of those keys are deleted unless newer by the cursor; the winners
     * whose key has no row left and that are not deletions are inserted. No temporary table: its
     * CREATE would be DDL inside the transaction.
     */
    @Override
    public List<String> mergeStatements(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        String order = orderBy.stream().map(o -> o + " DESC").collect(Collectors.joining(", "));
        String rank = quote("_skippr_rank_in_key");
        String winners =
                "(SELECT * FROM (SELECT l.*, ROW_NUMBER() OVER (PARTITION BY "
                        + quoteAll(key)
                        + " ORDER BY "
                        + order
                        + ") AS "
                        + rank
                        + " FROM ("
                        + staged
                        + ") l) r WHERE "
                        + rank
                        + " = 1) w";
        String match =
                key.stream()
                        .map(k -> target + "." + quote(k) + " = w." + quote(k))
                        .collect(Collectors.joining(" AND "));
        List<String> all = new ArrayList<>(columns);
        all.add(SqlNames.ID);
        all.add(SqlNames.SYNCED_AT);
        String guard =
                cursor == null
                        ? ""
                        : " AND (w."
                                + cursor
                                + " IS NULL OR "
                                + target
                                + "."
                                + cursor
                                + " IS NULL OR w."
                                + cursor
                                + " >= "
                                + target
                                + "."
                                + cursor
                                + ")";
        return List.of(
                "DELETE FROM "
                        + target
                        + " WHERE EXISTS (SELECT 1 FROM "
                        + winners
                        + " WHERE "
                        + match
                        + guard
                        + ")",
                "INSERT INTO "
                        + target
                        + " ("
                        + quoteAll(all)
                        + ") SELECT "
                        + all.stream().map(c -> "w." + quote(c)).collect(Collectors.joining(", "))
                        + " FROM "
                        + winners
                        + " WHERE w."
                        + quote(SqlNames.DELETE_ROW)
                        + " = CAST(0 AS BIT) AND NOT EXISTS (SELECT 1 FROM "
                        + target
                        + " WHERE "
                        + match
                        + ")");
    }

    /** DELETE, in the commit's transaction. */
    @Override
    public String emptyTable(String qualified) {
        return "DELETE FROM " + qualified;
    }

    /** Not reached: without transactional DDL, replace empties and refills the target. */
    @Override
    public void swap(Connection c, String schema, String table, String replacement)
            throws SQLException {
        throw new SQLException("Synapse replaces a table's rows in place, without a swap");
    }

    @Override
    public boolean hasDependents(Connection c, String schema, String table) {
        return false;
    }

    @Override
    public String markerTable(String qualified) {
        return "CREATE TABLE "
                + qualified
                + " (\"pipeline\" NVARCHAR(1024) NOT NULL, \"sink\" NVARCHAR(1024) NOT NULL,"
                + " \"run\" BIGINT NOT NULL, \"checkpoint\" BIGINT NOT NULL,"
                + " \"subtask\" INT NOT NULL, \"parallelism\" INT NOT NULL,"
                + " \"bounded\" BIT NOT NULL, \"write_mode\" NVARCHAR(16) NOT NULL,"
                + " \"rows\" BIGINT NOT NULL, \"positions\" NVARCHAR(MAX))"
                + " WITH (DISTRIBUTION = ROUND_ROBIN, HEAP)";
    }
}
