package io.skippr.sinks.postgres;

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
 * PostgreSQL's SQL: quoting, the type mapping, catalog queries, the schema evolution policy, the
 * upsert ({@code INSERT … ON CONFLICT … DO UPDATE}) and the table swap ({@code ALTER TABLE …
 * RENAME}, grants and owner copied). Column types are spelled as {@code format_type} prints them,
 * so a target column can be compared with the type a stream asks for.
 */
public final class PostgresDialect implements SqlDialect {
    private static final long serialVersionUID = 1L;

    /** PostgreSQL's NAMEDATALEN - 1. */
    static final int MAX_IDENTIFIER_BYTES = 63;

    /** numeric's largest declarable precision. */
    static final int MAX_NUMERIC_PRECISION = 1000;

    private static final Pattern NUMERIC = Pattern.compile("numeric(?:\\((\\d+),(\\d+)\\))?");

    @Override
    public int maxIdentifierBytes() {
        return MAX_IDENTIFIER_BYTES;
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
            case DECIMAL -> numeric(type.precision(), type.scale());
            case STRING -> "text";
            case JSON -> "jsonb";
            case UUID -> "uuid";
            case BYTES -> "bytea";
            case DATE -> "date";
            case TIME -> "time without time zone";
            case TIMESTAMP -> "timestamp without time zone";
            case TIMESTAMP_TZ -> "timestamp with time zone";
        };
    }

    /** {@code numeric(p,s)}, or unbounded {@code numeric} for precision 0 or above 1000. */
    static String numeric(int precision, int scale) {
        if (precision <= 0 || precision > MAX_NUMERIC_PRECISION || scale < 0 || scale > precision) {
            return "numeric";
        }
        return "numeric(" + precision + "," + scale + ")";
    }

    @Override
    public boolean schemaExists(Connection c, String schema) throws SQLException {
        return PgCatalog.schemaExists(c, schema);
    }

    @Override
    public LinkedHashMap<String, String> columns(Connection c, String schema, String table)
            throws SQLException {
        return PgCatalog.columns(c, schema, table, t -> t);
    }

    @Override
    public boolean hasUniqueKey(Connection c, String schema, String table, List<String> key)
            throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT 1 FROM pg_catalog.pg_index i"
                                + " JOIN pg_catalog.pg_class c ON c.oid = i.indrelid"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                                + " WHERE n.nspname = ? AND c.relname = ? AND i.indisunique"
                                + " AND i.indpred IS NULL AND i.indexprs IS NULL"
                                + " AND i.indnkeyatts = ?"
                                + " AND (SELECT array_agg(a.attname::text)"
                                + " FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.oid"
                                + " AND a.attnum = ANY (i.indkey)) @> ?::text[]")) {
            st.setString(1, schema);
            st.setString(2, table);
            st.setInt(3, key.size());
            st.setArray(4, c.createArrayOf("text", key.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public boolean hasOwnRules(Connection c, String schema, String table) throws SQLException {
        return tableTest(
                c,
                schema,
                table,
                "SELECT c.relkind = 'p' OR c.relrowsecurity"
                        + " OR EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k"
                        + " WHERE k.conrelid = c.oid AND k.contype IN ('c', 'f', 'u', 'x'))"
                        + " OR EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t"
                        + " WHERE t.tgrelid = c.oid AND NOT t.tgisinternal)"
                        + " OR EXISTS (SELECT 1 FROM pg_catalog.pg_rewrite r"
                        + " WHERE r.ev_class = c.oid AND r.rulename <> '_RETURN')"
                        + " OR EXISTS (SELECT 1 FROM pg_catalog.pg_index i"
                        + " WHERE i.indrelid = c.oid AND i.indisunique"
                        + " AND NOT i.indisprimary)"
                        + " OR EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a"
                        + " JOIN pg_catalog.pg_type y ON y.oid = a.atttypid"
                        + " WHERE a.attrelid = c.oid AND a.attnum > 0"
                        + " AND NOT a.attisdropped AND (y.typtype = 'd'"
                        + " OR (a.atttypmod > 0 AND a.atttypid IN"
                        + " ('pg_catalog.varchar'::regtype, 'pg_catalog.bpchar'::regtype))"
                        + " OR (a.attnotnull AND NOT EXISTS (SELECT 1"
                        + " FROM pg_catalog.pg_index p WHERE p.indrelid = c.oid"
                        + " AND p.indisprimary AND a.attnum = ANY (p.indkey)))))");
    }

    @Override
    public List<StagingInfo> stagingTables(Connection c, String schema) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT c.relname, pg_catalog.obj_description(c.oid, 'pg_class')"
                                + " FROM pg_catalog.pg_class c"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                                + " WHERE n.nspname = ? AND c.relkind = 'r'"
                                + " AND left(c.relname::text, ?) = ? ORDER BY c.relname")) {
            st.setString(1, schema);
            st.setInt(2, SqlNames.STAGING_PREFIX.length());
            st.setString(3, SqlNames.STAGING_PREFIX);
            List<StagingInfo> out = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(new StagingInfo(rs.getString(1), rs.getString(2)));
                }
            }
            return out;
        }
    }

    @Override
    public void lockForDdl(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement("SELECT pg_catalog.pg_advisory_xact_lock(hashtext(?))")) {
            st.setString(1, "skippr|" + schema + "|" + table);
            st.execute();
        }
    }

    /**
     * The schema evolution policy. A column keeps its type when it holds every value of the new one
     * (bigint takes integer, numeric takes any number, text takes anything); it is widened along
     * smallint → integer → bigint → numeric, real → double precision (also for smallint and
     * integer), numeric(p,s) → a numeric with enough digits on both sides of the point, varchar(n)
     * or char(n) → text; any other change is refused.
     */
    @Override
    public TypeChange change(String existing, DataType wanted) {
        String have = normalise(existing);
        String want = columnType(wanted);
        if (have.equals(want)) {
            return TypeChange.KEEP;
        }
        if (have.equals("text") || have.equals("character varying")) {
            return TypeChange.KEEP; // holds the text form of anything
        }
        if (have.startsWith("character varying(") || have.startsWith("character(")) {
            return wanted.kind() == DataType.Kind.STRING
                    ? TypeChange.widen("text")
                    : refuse(existing, wanted);
        }
        if (have.equals("json") && wanted.kind() == DataType.Kind.JSON) {
            return TypeChange.KEEP;
        }
        int haveDigits = integerDigits(have);
        Matcher haveNumeric = NUMERIC.matcher(have);
        switch (wanted.kind()) {
            case INT16, INT32, INT64, DECIMAL -> {
                int[] w = digits(wanted);
                if (haveNumeric.matches()) {
                    if (haveNumeric.group(1) == null) {
                        return TypeChange.KEEP;
                    }
                    int p = Integer.parseInt(haveNumeric.group(1));
                    int s = Integer.parseInt(haveNumeric.group(2));
                    if (w == null) {
                        return TypeChange.widen("numeric");
                    }
                    if (w[0] <= p - s && w[1] <= s) {
                        return TypeChange.KEEP;
                    }
                    int scale = Math.max(s, w[1]);
                    return TypeChange.widen(numeric(Math.max(p - s, w[0]) + scale, scale));
                }
                if (haveDigits > 0) {
                    if (wanted.kind() != DataType.Kind.DECIMAL) {
                        // integer kinds: the wider one wins
                        return integerDigits(want) <= haveDigits
                                ? TypeChange.KEEP
                                : TypeChange.widen(want);
                    }
                    if (w == null) {
                        return TypeChange.widen("numeric");
                    }
                    return TypeChange.widen(numeric(Math.max(haveDigits + 1, w[0]) + w[1], w[1]));
                }
                if (have.equals("double precision")
                        && (wanted.kind() == DataType.Kind.INT16
                                || wanted.kind() == DataType.Kind.INT32)) {
                    return TypeChange.KEEP;
                }
                if (have.equals("real") && wanted.kind() == DataType.Kind.INT16) {
                    return TypeChange.KEEP;
                }
                return refuse(existing, wanted);
            }
            case FLOAT32, FLOAT64 -> {
                if (have.equals("double precision")) {
                    return TypeChange.KEEP;
                }
                if (have.equals("real") || have.equals("smallint") || have.equals("integer")) {
                    return wanted.kind() == DataType.Kind.FLOAT32 && have.equals("smallint")
                            ? TypeChange.widen("real")
                            : TypeChange.widen("double precision");
                }
                return refuse(existing, wanted);
            }
            default -> {
                return refuse(existing, wanted);
            }
        }
    }

    private TypeChange refuse(String existing, DataType wanted) {
        return TypeChange.refuse(
                existing + " cannot hold every " + columnType(wanted) + " value without loss");
    }

    /** format_type's spelling without a time precision: {@code timestamp(3) with time zone}. */
    static String normalise(String type) {
        return type.toLowerCase(Locale.ROOT).replaceAll("^(time|timestamp)\\(\\d+\\)", "$1").trim();
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

    /** Integer and fraction digits a value of {@code type} may have; null if unbounded. */
    private static int[] digits(DataType type) {
        return switch (type.kind()) {
            case INT16 -> new int[] {5, 0};
            case INT32 -> new int[] {10, 0};
            case INT64 -> new int[] {19, 0};
            default ->
                    type.precision() <= 0 || type.precision() > MAX_NUMERIC_PRECISION
                            ? null
                            : new int[] {type.precision() - type.scale(), type.scale()};
        };
    }

    @Override
    public String alterColumnType(String qualified, String column, String type) {
        return "ALTER TABLE "
                + qualified
                + " ALTER COLUMN "
                + quote(column)
                + " TYPE "
                + type
                + " USING "
                + quote(column)
                + "::"
                + type;
    }

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
                keys
                        + ", "
                        + orderBy.stream()
                                .map(o -> o + " DESC NULLS LAST")
                                .collect(Collectors.joining(", "));
        List<String> all = new ArrayList<>(columns);
        all.add(SqlNames.ID);
        all.add(SqlNames.SYNCED_AT);
        String match =
                key.stream()
                        .map(k -> "t." + quote(k) + " = l." + quote(k))
                        .collect(Collectors.joining(" AND "));
        String updates =
                all.stream()
                        .filter(c -> !key.contains(c))
                        .map(c -> quote(c) + " = EXCLUDED." + quote(c))
                        .collect(Collectors.joining(", "));
        return "WITH staged AS ("
                + staged
                + "), latest AS (SELECT DISTINCT ON ("
                + keys
                + ") * FROM staged ORDER BY "
                + order
                + "), deleted AS (DELETE FROM "
                + target
                + " t USING latest l WHERE l."
                + quote(SqlNames.DELETE_ROW)
                + " AND "
                + match
                + (cursor == null ? "" : " AND " + notOlder("l", cursor))
                + ") INSERT INTO "
                + target
                + " AS t ("
                + quoteAll(all)
                + ") SELECT "
                + quoteAll(all)
                + " FROM latest WHERE NOT "
                + quote(SqlNames.DELETE_ROW)
                + " ON CONFLICT ("
                + keys
                + ") DO UPDATE SET "
                + updates
                + (cursor == null ? "" : " WHERE " + notOlder("EXCLUDED", cursor));
    }

    @Override
    public void swap(Connection c, String schema, String table, String replacement)
            throws SQLException {
        String target = qualified(schema, table);
        String fresh = qualified(schema, replacement);
        List<String> statements = new ArrayList<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT a.privilege_type, a.is_grantable, CASE WHEN a.grantee = 0 THEN"
                                + " 'PUBLIC' ELSE quote_ident(r.rolname) END,"
                                + " quote_ident(pg_catalog.pg_get_userbyid(c.relowner)),"
                                + " c.relowner = (SELECT oid FROM pg_catalog.pg_roles"
                                + " WHERE rolname = current_user)"
                                + " FROM pg_catalog.pg_class c"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                                + " LEFT JOIN LATERAL pg_catalog.aclexplode(c.relacl) a ON true"
                                + " LEFT JOIN pg_catalog.pg_roles r ON r.oid = a.grantee"
                                + " WHERE n.nspname = ? AND c.relname = ?")) {
            st.setString(1, schema);
            st.setString(2, table);
            boolean exists = false;
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    if (!exists && !rs.getBoolean(5)) {
                        statements.add("ALTER TABLE " + fresh + " OWNER TO " + rs.getString(4));
                    }
                    exists = true;
                    if (rs.getString(1) != null && !rs.getString(3).equals(rs.getString(4))) {
                        statements.add(
                                "GRANT "
                                        + rs.getString(1)
                                        + " ON "
                                        + fresh
                                        + " TO "
                                        + rs.getString(3)
                                        + (rs.getBoolean(2) ? " WITH GRANT OPTION" : ""));
                    }
                }
            }
            if (exists) {
                statements.add("DROP TABLE " + target);
            }
        }
        statements.add("ALTER TABLE " + fresh + " RENAME TO " + quote(table));
        try (Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    @Override
    public boolean hasDependents(Connection c, String schema, String table) throws SQLException {
        return tableTest(
                c,
                schema,
                table,
                "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d"
                        + " JOIN pg_catalog.pg_rewrite w ON w.oid = d.objid"
                        + " WHERE d.classid = 'pg_catalog.pg_rewrite'::regclass"
                        + " AND d.refclassid = 'pg_catalog.pg_class'::regclass"
                        + " AND d.refobjid = c.oid AND w.ev_class <> c.oid)"
                        + " OR EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k"
                        + " WHERE k.confrelid = c.oid AND k.conrelid <> c.oid)");
    }

    @Override
    public String loadsTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (pipeline text NOT NULL, sink text NOT NULL, stream text NOT NULL,"
                + " run bigint NOT NULL, checkpoint bigint NOT NULL, subtask integer NOT NULL,"
                + " mode text NOT NULL, rows bigint NOT NULL, checksum bigint NOT NULL,"
                + " position_type text, position_from text, position_to text,"
                + " committed_at timestamp with time zone NOT NULL DEFAULT now(),"
                + " PRIMARY KEY (pipeline, sink, run, checkpoint, subtask, stream))";
    }

    @Override
    public String markerTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (pipeline text NOT NULL, sink text NOT NULL, run bigint NOT NULL,"
                + " checkpoint bigint NOT NULL, subtask integer NOT NULL,"
                + " parallelism integer NOT NULL, bounded boolean NOT NULL,"
                + " write_mode text NOT NULL, rows bigint NOT NULL, positions text NOT NULL,"
                + " committed_at timestamp with time zone NOT NULL DEFAULT now(),"
                + " PRIMARY KEY (pipeline, sink, run, checkpoint, subtask))";
    }

    /**
     * The boolean {@code select} (a select list over {@code pg_class c}) says of table {@code
     * table} in {@code schema}; false if there is no such table.
     */
    private static boolean tableTest(Connection c, String schema, String table, String select)
            throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        select
                                + " FROM pg_catalog.pg_class c"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                                + " WHERE n.nspname = ? AND c.relname = ?")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
