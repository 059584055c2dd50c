package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Discovery from the PostgreSQL catalog: which tables of a schema the {@code tables} setting
 * chooses, and each table's columns, types, nullability and primary key.
 */
public final class PostgresCatalog {
    /** How many names an error message lists at most. */
    private static final int LISTED_NAMES = 20;

    private PostgresCatalog() {}

    /** A relation of the schema. */
    record Relation(String name, char kind, boolean partition) {
        /** Ordinary and partitioned tables that are not themselves partitions. */
        boolean isPlainTable() {
            return (kind == 'r' || kind == 'p') && !partition;
        }
    }

    /**
     * The tables chosen by {@code entries} (all tables of {@code schema} when empty), described. An
     * entry is a table name or pattern of {@code schema}, or one qualified by its own schema:
     * {@code public.orders}, {@code sales.*}.
     *
     * @throws PostgresSourceException naming every schema, table and pattern that does not exist
     *     (with close names), and every table that lacks the cursor column
     */
    static List<TableInfo> discover(
            Connection c, String database, String schema, List<String> entries, String cursor)
            throws SQLException {
        java.util.Map<String, List<String>> bySchema = new java.util.LinkedHashMap<>();
        if (entries.isEmpty()) {
            bySchema.put(schema, List.of());
        }
        for (String entry : entries) {
            int dot = entry.indexOf('.');
            String in = dot < 0 ? schema : entry.substring(0, dot);
            String name = dot < 0 ? entry : entry.substring(dot + 1);
            bySchema.computeIfAbsent(in, k -> new ArrayList<>()).add(name);
        }
        List<String> errors = new ArrayList<>();
        List<String[]> names = new ArrayList<>();
        for (java.util.Map.Entry<String, List<String>> group : bySchema.entrySet()) {
            String in = group.getKey();
            if (!schemaExists(c, in)) {
                errors.add(
                        "Schema "
                                + Sql.show(in)
                                + " does not exist in database "
                                + Sql.show(database)
                                + closeOrAll(in, schemas(c), "schemas in the database"));
                continue;
            }
            try {
                for (String name : select(in, group.getValue(), relations(c, in))) {
                    names.add(new String[] {in, name});
                }
            } catch (PostgresSourceException e) {
                errors.add(e.getMessage());
            }
        }
        java.util.Map<String, String> streams = new java.util.HashMap<>();
        for (String[] name : names) {
            String other = streams.putIfAbsent(name[1], name[0]);
            if (other != null) {
                errors.add(
                        "Tables "
                                + Sql.table(other, name[1])
                                + " and "
                                + Sql.table(name[0], name[1])
                                + " would both become stream "
                                + Sql.show(name[1])
                                + "; read them in two data sources");
            }
        }
        List<TableInfo> tables = new ArrayList<>();
        for (String[] name : errors.isEmpty() ? names : List.<String[]>of()) {
            TableInfo table = describe(c, name[0], name[1], null);
            if (table == null) {
                errors.add(
                        "Table " + Sql.table(name[0], name[1]) + " was dropped during discovery");
                continue;
            }
            if (cursor != null) {
                String problem = cursorProblem(table, cursor);
                if (problem != null) {
                    errors.add(problem);
                    continue;
                }
                table = withCursor(table, cursor);
            }
            tables.add(table);
        }
        if (!errors.isEmpty()) {
            throw new PostgresSourceException(String.join("\n", errors));
        }
        return tables;
    }

    static TableInfo withCursor(TableInfo table, String cursor) {
        return new TableInfo(
                table.schema(), table.table(), table.columns(), table.primaryKey(), cursor);
    }

    /** Why {@code cursor} cannot be the cursor column of {@code table}, or null if it can. */
    static String cursorProblem(TableInfo table, String cursor) {
        int index = table.indexOf(cursor);
        if (index < 0) {
            List<String> columns = table.columns().stream().map(ColumnInfo::name).toList();
            return "Table "
                    + table.qualifiedName()
                    + " has no cursor column "
                    + Sql.show(cursor)
                    + closeOrAll(cursor, columns, "its columns");
        }
        ColumnInfo column = table.columns().get(index);
        DataType.Kind kind = column.type().kind();
        if (kind == DataType.Kind.BYTES || kind == DataType.Kind.JSON || !column.nativeOrder()) {
            return "Column "
                    + Sql.show(cursor)
                    + " of table "
                    + table.qualifiedName()
                    + " has type "
                    + column.pgType()
                    + ", which cannot be an incremental cursor: use a column of a number, date,"
                    + " time, timestamp, uuid or text type";
        }
        return null;
    }

    /**
     * The table names {@code patterns} choose among {@code relations}, sorted and without
     * duplicates. An entry without {@code *} or {@code ?} names one relation (a view or a partition
     * may be named); a pattern and the default match ordinary and partitioned tables.
     */
    static List<String> select(String schema, List<String> patterns, List<Relation> relations) {
        List<String> tables =
                relations.stream().filter(Relation::isPlainTable).map(Relation::name).toList();
        List<String> all = relations.stream().map(Relation::name).toList();
        if (patterns.isEmpty()) {
            if (tables.isEmpty()) {
                throw new PostgresSourceException(
                        "Schema " + Sql.show(schema) + " has no tables to read");
            }
            return tables.stream().sorted().toList();
        }
        TreeSet<String> chosen = new TreeSet<>();
        List<String> errors = new ArrayList<>();
        for (String entry : patterns) {
            if (isPattern(entry)) {
                Pattern regex = globToRegex(entry);
                List<String> matched =
                        tables.stream().filter(t -> regex.matcher(t).matches()).toList();
                if (matched.isEmpty()) {
                    errors.add(
                            "Table pattern '"
                                    + entry
                                    + "' matches no table in schema "
                                    + Sql.show(schema)
                                    + closeOrAll(literalPrefix(entry), tables, "tables there"));
                }
                chosen.addAll(matched);
            } else if (all.contains(entry)) {
                chosen.add(entry);
            } else {
                errors.add(
                        "Table "
                                + Sql.show(entry)
                                + " does not exist in schema "
                                + Sql.show(schema)
                                + closeOrAll(entry, all, "tables there"));
            }
        }
        if (!errors.isEmpty()) {
            throw new PostgresSourceException(String.join("\n", errors));
        }
        return List.copyOf(chosen);
    }

    static boolean isPattern(String entry) {
        return entry.indexOf('*') >= 0 || entry.indexOf('?') >= 0;
    }

    /** {@code *} is any run of characters, {@code ?} one character; all else is literal. */
    static Pattern globToRegex(String glob) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char ch : glob.toCharArray()) {
            if (ch == '*' || ch == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(ch == '*' ? ".*" : ".");
            } else {
                literal.append(ch);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    private static String literalPrefix(String glob) {
        int cut = glob.length();
        for (int i = 0; i < glob.length(); i++) {
            if (glob.charAt(i) == '*' || glob.charAt(i) == '?') {
                cut = i;
                break;
            }
        }
        return glob.substring(0, cut);
    }

    /** "; close names: ..." when some are close, else "; <what>: ..." or a note of none. */
    static String closeOrAll(String input, List<String> candidates, String what) {
        List<String> close = closeNames(input, candidates);
        if (!close.isEmpty()) {
            return "; close names: " + list(close);
        }
        if (candidates.isEmpty()) {
            return "; there are none";
        }
        return "; " + what + ": " + list(candidates.stream().sorted().toList());
    }

    private static String list(List<String> names) {
        String shown =
                names.stream().limit(LISTED_NAMES).map(Sql::show).collect(Collectors.joining(", "));
        return names.size() > LISTED_NAMES
                ? shown + " and " + (names.size() - LISTED_NAMES) + " more"
                : shown;
    }

    /** Up to five candidates that look like a typo of {@code input}, closest first. */
    static List<String> closeNames(String input, List<String> candidates) {
        return io.skippr.config.model.Suggest.closeNames(input, candidates, 5);
    }

    static boolean schemaExists(Connection c, String schema) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?")) {
            s.setString(1, schema);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static List<String> schemas(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement s =
                        c.prepareStatement(
                                "SELECT nspname FROM pg_catalog.pg_namespace"
                                        + " WHERE nspname NOT LIKE 'pg\\_%'"
                                        + " AND nspname <> 'information_schema' ORDER BY nspname");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    static List<Relation> relations(Connection c, String schema) throws SQLException {
        List<Relation> relations = new ArrayList<>();
        try (PreparedStatement s =
                c.prepareStatement(
                        "SELECT c.relname, c.relkind, c.relispartition FROM pg_catalog.pg_class c"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                                + " WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'v', 'm', 'f')"
                                + " ORDER BY c.relname")) {
            s.setString(1, schema);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    relations.add(
                            new Relation(
                                    rs.getString(1), rs.getString(2).charAt(0), rs.getBoolean(3)));
                }
            }
        }
        return relations;
    }

    private static final String RELATION_OID =
            "(SELECT c.oid FROM pg_catalog.pg_class c"
                    + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE n.nspname = ? AND c.relname = ?)";

    /**
     * The table's columns and key; null if the table no longer exists.
     *
     * @param cursor the cursor column to record, or null
     */
    static TableInfo describe(Connection c, String schema, String table, String cursor)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + RELATION_OID)) {
            s.setString(1, schema);
            s.setString(2, table);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next() || rs.getObject(1) == null) {
                    return null;
                }
            }
        }
        List<ColumnInfo> columns = new ArrayList<>();
        try (PreparedStatement s =
                c.prepareStatement(
                        "SELECT a.attname, a.attnotnull, a.atttypmod,"
                                + " pg_catalog.format_type(a.atttypid, a.atttypmod),"
                                + " t.typname, t.typtype, t.typcategory, t.typbasetype::bigint,"
                                + " t.typtypmod, tn.nspname"
                                + " FROM pg_catalog.pg_attribute a"
                                + " JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
                                + " JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace"
                                + " WHERE a.attrelid = "
                                + RELATION_OID
                                + " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")) {
            s.setString(1, schema);
            s.setString(2, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    boolean notNull = rs.getBoolean(2);
                    int typmod = rs.getInt(3);
                    String pgType = rs.getString(4);
                    PgType type =
                            new PgType(
                                    rs.getString(5),
                                    rs.getString(6).charAt(0),
                                    rs.getString(7).charAt(0),
                                    rs.getLong(8),
                                    rs.getInt(9),
                                    rs.getString(10));
                    columns.add(column(c, name, !notNull, pgType, type, typmod));
                }
            }
        }
        List<String> key = new ArrayList<>();
        try (PreparedStatement s =
                c.prepareStatement(
                        "SELECT a.attname FROM pg_catalog.pg_index i"
                                + " CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY"
                                + " AS k(attnum, ord)"
                                + " JOIN pg_catalog.pg_attribute a"
                                + " ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
                                + " WHERE i.indisprimary AND i.indrelid = "
                                + RELATION_OID
                                + " ORDER BY k.ord")) {
            s.setString(1, schema);
            s.setString(2, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    key.add(rs.getString(1));
                }
            }
        }
        return new TableInfo(schema, table, columns, key, cursor);
    }

    /** A row of pg_type. */
    private record PgType(
            String name, char type, char category, long baseType, int typmod, String namespace) {}

    private static ColumnInfo column(
            Connection c, String name, boolean nullable, String pgType, PgType type, int typmod)
            throws SQLException {
        BaseType base = base(c, type, typmod);
        type = base.type();
        boolean builtin = type.namespace().equals("pg_catalog");
        DataType dataType = PgTypes.map(type.name(), builtin, type.category(), base.typmod());
        String castType = Sql.quote(type.namespace()) + "." + Sql.quote(type.name());
        return new ColumnInfo(
                name,
                dataType,
                nullable,
                pgType,
                castType,
                PgTypes.nativeOrder(dataType, type.name(), builtin));
    }

    /**
     * Skippr's type for values of PostgreSQL type {@code oid} with modifier {@code typmod} (-1 for
     * none), typed as {@link #describe} types a column of it: a domain as its base type.
     */
    public static DataType dataType(Connection c, long oid, int typmod) throws SQLException {
        BaseType base = base(c, pgType(c, oid), typmod);
        PgType type = base.type();
        return PgTypes.map(
                type.name(), type.namespace().equals("pg_catalog"), type.category(), base.typmod());
    }

    /** A type after its domains, with the modifier that applies to it. */
    private record BaseType(PgType type, int typmod) {}

    /** A domain reads as its base type; its own modifier applies when the column has none. */
    private static BaseType base(Connection c, PgType type, int typmod) throws SQLException {
        for (int depth = 0; type.type() == 'd' && depth < 32; depth++) {
            if (typmod < 0) {
                typmod = type.typmod();
            }
            type = pgType(c, type.baseType());
        }
        return new BaseType(type, typmod);
    }

    private static PgType pgType(Connection c, long oid) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement(
                        "SELECT t.typname, t.typtype, t.typcategory, t.typbasetype::bigint,"
                                + " t.typtypmod, n.nspname FROM pg_catalog.pg_type t"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace"
                                + " WHERE t.oid = ?::oid")) {
            s.setLong(1, oid);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("type " + oid + " is not in pg_type");
                }
                return new PgType(
                        rs.getString(1),
                        rs.getString(2).charAt(0),
                        rs.getString(3).charAt(0),
                        rs.getLong(4),
                        rs.getInt(5),
                        rs.getString(6));
            }
        }
    }
}
