package io.skippr.sinks.redshift;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.PgCatalog;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.TypeChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Redshift's SQL. Only what Redshift runs: no advisory locks (a commit locks the marker table
 * first), no {@code ON CONFLICT} (merge is delete and insert in the commit's transaction), no
 * TRUNCATE inside a transaction (it commits), no column type changes inside one (so the schema
 * evolution policy only adds columns), no {@code LATERAL}, arrays or {@code USING} casts. Redshift
 * enforces no key, so none is declared. Names fold to lower case and hold up to 127 bytes.
 */
public final class RedshiftDialect implements SqlDialect {
    private static final long serialVersionUID = 1L;

    static final int MAX_IDENTIFIER_BYTES = 127;

    /** The longest VARCHAR, in bytes, and the longest VARBYTE. */
    static final int MAX_VARCHAR_BYTES = 65_535;

    static final int MAX_VARBYTE_BYTES = 1_024_000;

    static final int MAX_NUMERIC_PRECISION = 38;

    static final String TEXT = "character varying(" + MAX_VARCHAR_BYTES + ")";

    private static final Pattern VARCHAR = Pattern.compile("character varying\\((\\d+)\\)");
    private static final Pattern NUMERIC = Pattern.compile("numeric\\((\\d+),(\\d+)\\)");

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
            case BOOLEAN -> "boolean";
            case INT16 -> "smallint";
            case INT32 -> "integer";
            case INT64 -> "bigint";
            case FLOAT32 -> "real";
            case FLOAT64 -> "double precision";
            case DECIMAL ->
                    numeric(type) ? "numeric(" + type.precision() + "," + type.scale() + ")" : TEXT;
            case STRING, JSON -> TEXT;
            case UUID -> "character varying(36)";
            case BYTES -> "varbyte(" + MAX_VARBYTE_BYTES + ")";
            case DATE -> "date";
            case TIME -> "time without time zone";
            case TIMESTAMP -> "timestamp without time zone";
            case TIMESTAMP_TZ -> "timestamp with time zone";
        };
    }

    /** Whether a decimal is stored as numeric(p,s); else as its exact text. */
    static boolean numeric(DataType type) {
        return type.isDecimalWithin(MAX_NUMERIC_PRECISION);
    }

    @Override
    public boolean schemaExists(Connection c, String schema) throws SQLException {
        return PgCatalog.schemaExists(c, schema);
    }

    @Override
    public LinkedHashMap<String, String> columns(Connection c, String schema, String table)
            throws SQLException {
        return PgCatalog.columns(c, schema, table, RedshiftDialect::normalise);
    }

    /** Redshift's spelling of a type as {@link #columnType} gives it. */
    static String normalise(String type) {
        String t = type.toLowerCase(Locale.ROOT).trim();
        if (t.equals("bytea") || t.startsWith("binary varying") || t.startsWith("varbyte")) {
            return "varbyte(" + MAX_VARBYTE_BYTES + ")";
        }
        return t;
    }

    /** Redshift enforces no key: a merge deletes and inserts, so none is needed. */
    @Override
    public boolean hasUniqueKey(Connection c, String schema, String table, List<String> key) {
        return true;
    }

    /** No staging tables outlive a commit: staged rows wait as files ({@code StagedFiles}). */
    @Override
    public List<StagingInfo> stagingTables(Connection c, String schema) {
        return List.of();
    }

    /** Nothing: every commit holds the marker table's lock ({@link #beginCommit}) already. */
    @Override
    public void lockForDdl(Connection c, String schema, String table) {}

    /**
     * Locks the marker table, first in the commit's transaction: commits of the same schema queue
     * here rather than fail Redshift's serializable isolation check (error 1023) later.
     */
    @Override
    public void beginCommit(Connection c, String qualifiedMarker) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("LOCK " + qualifiedMarker);
        }
    }

    /** Columns only: Redshift does not enforce a primary key, so none is declared. */
    @Override
    public String createTable(
            String qualified, List<String> columns, List<String> types, List<String> key) {
        return SqlDialect.super.createTable(qualified, columns, types, List.of());
    }

    /**
     * The schema evolution policy. Redshift cannot change a column's type inside a transaction, so
     * a column keeps its type when it holds every value of the new one (a wider integer, double
     * precision for real and small integers, a numeric with room on both sides, a long enough
     * varchar for text) and any other change is refused.
     */
    @Override
    public TypeChange change(String existing, DataType wanted) {
        String have = normalise(existing);
        String want = columnType(wanted);
        if (have.equals(want)) {
            return TypeChange.KEEP;
        }
        Matcher varchar = VARCHAR.matcher(have);
        Matcher wantVarchar = VARCHAR.matcher(want);
        if (varchar.matches() && wantVarchar.matches()) {
            return Integer.parseInt(varchar.group(1)) >= Integer.parseInt(wantVarchar.group(1))
                    ? TypeChange.KEEP
                    : refuse(existing, wanted);
        }
        int haveDigits = integerDigits(have);
        int wantDigits = integerDigits(want);
        if (haveDigits > 0 && wantDigits > 0) {
            return wantDigits <= haveDigits ? TypeChange.KEEP : refuse(existing, wanted);
        }
        Matcher numeric = NUMERIC.matcher(have);
        if (numeric.matches()) {
            int p = Integer.parseInt(numeric.group(1));
            int s = Integer.parseInt(numeric.group(2));
            int[] w =
                    switch (wanted.kind()) {
                        case INT16 -> new int[] {5, 0};
                        case INT32 -> new int[] {10, 0};
                        case INT64 -> new int[] {19, 0};
                        case DECIMAL ->
                                numeric(wanted)
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
        if (have.equals("double precision")
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
                        + " value, and Redshift cannot change a column's type in the transaction"
                        + " that loads it");
    }

    /** Decimal digits an integer type holds in full: 4, 9, 18; 0 for other types. */
    private static int integerDigits(String type) {
        return switch (type) {
            case "smallint" -> 4;
            case "integer" -> 9;
            case "bigint" -> 18;
            default -> 0;
        };
    }

    @Override
    public String evolutionPolicy() {
        return "Skippr adds columns; Redshift cannot change a column's type inside the transaction"
                + " that loads it, so a column keeps its type where that holds every new value"
                + " (bigint takes integer, double precision takes real, a longer varchar takes a"
                + " shorter one) and any other change is refused";
    }

    /** Never used: {@link #change} widens nothing. */
    @Override
    public String alterColumnType(String qualified, String column, String type) {
        return "ALTER TABLE " + qualified + " ALTER COLUMN " + quote(column) + " TYPE " + type;
    }

    @Override
    public String addPrimaryKey(String qualified, List<String> key) {
        throw new UnsupportedOperationException("Redshift enforces no key; none is declared");
    }

    @Override
    public String merge(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        throw new UnsupportedOperationException("Redshift merges in several statements");
    }

    /** The temporary table of a merge's winning rows, one per key. */
    static final String WINNERS = "_skippr_merge";

    /**
     * A merge as delete and insert: the winning row of each key (the last by {@code orderBy}) goes
     * into a temporary table; the target rows of those keys are deleted unless newer by the cursor;
     * the winners whose key has no row left and that are not deletions are inserted.
     */
    @Override
    public List<String> mergeStatements(
            String target,
            String staged,
            List<String> key,
            List<String> columns,
            List<String> orderBy,
            String cursor) {
        String winners = quote(WINNERS);
        String order =
                orderBy.stream().map(o -> o + " DESC NULLS LAST").collect(Collectors.joining(", "));
        String rank = quote("_skippr_rank_in_key");
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
                "CREATE TEMP TABLE "
                        + winners
                        + " AS SELECT * FROM (SELECT l.*, ROW_NUMBER() OVER (PARTITION BY "
                        + quoteAll(key)
                        + " ORDER BY "
                        + order
                        + ") AS "
                        + rank
                        + " FROM ("
                        + staged
                        + ") l) r WHERE "
                        + rank
                        + " = 1",
                "DELETE FROM " + target + " USING " + winners + " w WHERE " + match + guard,
                "INSERT INTO "
                        + target
                        + " ("
                        + quoteAll(all)
                        + ") SELECT "
                        + all.stream().map(c -> "w." + quote(c)).collect(Collectors.joining(", "))
                        + " FROM "
                        + winners
                        + " w LEFT JOIN "
                        + target
                        + " ON "
                        + match
                        + " WHERE "
                        + target
                        + "."
                        + quote(key.get(0))
                        + " IS NULL AND NOT w."
                        + quote(SqlNames.DELETE_ROW),
                "DROP TABLE " + winners);
    }

    /** DELETE: Redshift's TRUNCATE commits the transaction it runs in. */
    @Override
    public String emptyTable(String qualified) {
        return "DELETE FROM " + qualified;
    }

    /** Drops the old table and renames the new one; the new table's owner is the loading user. */
    @Override
    public void swap(Connection c, String schema, String table, String replacement)
            throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + qualified(schema, table));
            st.execute(
                    "ALTER TABLE " + qualified(schema, replacement) + " RENAME TO " + quote(table));
        }
    }

    @Override
    public boolean hasDependents(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT 1 FROM pg_catalog.pg_depend d"
                                + " JOIN pg_catalog.pg_rewrite r ON r.oid = d.objid"
                                + " JOIN pg_catalog.pg_class c ON c.oid = d.refobjid"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                                + " WHERE n.nspname = ? AND c.relname = ?"
                                + " AND r.ev_class <> c.oid")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public String markerTable(String qualified) {
        return "CREATE TABLE "
                + qualified
                + " (pipeline character varying(1024) NOT NULL,"
                + " sink character varying(1024) NOT NULL, run bigint NOT NULL,"
                + " checkpoint bigint NOT NULL, subtask integer NOT NULL,"
                + " parallelism integer NOT NULL, bounded boolean NOT NULL,"
                + " write_mode character varying(16) NOT NULL, rows bigint NOT NULL,"
                + " positions "
                + TEXT
                + ")";
    }

    /**
     * The loads table ({@code LoadsTable}): Redshift has no {@code now()} on its compute nodes; its
     * {@code SYSDATE} is the start of the commit's transaction, in the session's UTC.
     */
    @Override
    public String loadsTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (\"pipeline\" character varying(1024) NOT NULL,"
                + " \"sink\" character varying(1024) NOT NULL, \"stream\" "
                + TEXT
                + " NOT NULL, \"run\" bigint NOT NULL, \"checkpoint\" bigint NOT NULL,"
                + " \"subtask\" integer NOT NULL, \"mode\" character varying(16) NOT NULL,"
                + " \"rows\" bigint NOT NULL, \"checksum\" bigint NOT NULL,"
                + " \"position_type\" character varying(256), \"position_from\" "
                + TEXT
                + ", \"position_to\" "
                + TEXT
                + ", \"committed_at\" timestamp with time zone NOT NULL DEFAULT SYSDATE)";
    }
}
