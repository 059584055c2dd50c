package io.skippr.sinks.bigquery;

import com.google.cloud.bigquery.BigQueryException;
import com.google.cloud.bigquery.Field;
import com.google.cloud.bigquery.Table;
import com.google.cloud.bigquery.TableId;
import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.TypeChange;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;

/**
 * GoogleSQL on BigQuery tables. Names are backticked; string literals use backslash escapes. Every
 * query job commits alone, so what the SQL family runs in one transaction is made repeatable here,
 * as for Databricks: tables are created {@code IF NOT EXISTS}, columns added {@code IF NOT EXISTS},
 * an append inserts only the staged rows not in the target yet ({@link #append}), a merge is one
 * {@code MERGE}, a replace is one {@code CREATE OR REPLACE TABLE … AS SELECT} ({@link #swap}).
 * BigQuery enforces no keys, so none is declared. Table columns are read through the tables API.
 */
public final class BigQueryDialect implements SqlDialect {
    private static final long serialVersionUID = 1L;

    /** BigQuery's longest column name, in characters (bytes for ASCII names). */
    static final int MAX_IDENTIFIER_BYTES = 300;

    @Override
    public String quote(String identifier) {
        return "`" + identifier.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    @Override
    public String literal(String text) {
        StringBuilder out = new StringBuilder("'");
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '\\' -> out.append("\\\\");
                case '\'' -> out.append("\\'");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(ch);
            }
        }
        return out.append('\'').toString();
    }

    @Override
    public int maxIdentifierBytes() {
        return MAX_IDENTIFIER_BYTES;
    }

    /**
     * Column names keep the characters BigQuery's flexible column names take (letters, marks,
     * numbers, connectors, dashes, spaces and {@code & % = + : ' < > # |}); any other character
     * becomes {@code _}.
     */
    @Override
    public SqlNames names() {
        return new SqlNames(MAX_IDENTIFIER_BYTES) {
            @Override
            protected String columnCharacters(String name) {
                return columnName(name);
            }
        };
    }

    /** {@code name} with each character BigQuery refuses in a column name replaced by {@code _}. */
    public static String columnName(String name) {
        StringBuilder out = new StringBuilder(name.length());
        name.codePoints()
                .forEach(
                        cp -> {
                            int type = Character.getType(cp);
                            boolean ok =
                                    Character.isLetterOrDigit(cp)
                                            || type == Character.NON_SPACING_MARK
                                            || type == Character.ENCLOSING_MARK
                                            || type == Character.COMBINING_SPACING_MARK
                                            || type == Character.LETTER_NUMBER
                                            || type == Character.OTHER_NUMBER
                                            || type == Character.CONNECTOR_PUNCTUATION
                                            || type == Character.DASH_PUNCTUATION
                                            || type == Character.SPACE_SEPARATOR
                                            || "&%=+:'<>#|".indexOf(cp) >= 0;
                            if (ok) {
                                out.appendCodePoint(cp);
                            } else {
                                out.append('_');
                            }
                        });
        return out.toString();
    }

    @Override
    public String columnType(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "BOOL";
            case INT16, INT32, INT64 -> "INT64";
            case FLOAT32, FLOAT64 -> "FLOAT64";
            case DECIMAL -> decimal(type);
            case STRING, UUID -> "STRING";
            case JSON -> "JSON";
            case TIME -> "TIME";
            case BYTES -> "BYTES";
            case DATE -> "DATE";
            case TIMESTAMP -> "DATETIME";
            case TIMESTAMP_TZ -> "TIMESTAMP";
        };
    }

    /**
     * NUMERIC(p,s) where it fits (at most 29 integer digits and 9 fraction digits), else
     * BIGNUMERIC(p,s) (38 and 38), else STRING holding the exact text; a decimal of unstated
     * precision is BIGNUMERIC.
     */
    static String decimal(DataType type) {
        if (type.precision() <= 0) {
            return "BIGNUMERIC";
        }
        int integer = type.precision() - type.scale();
        if (type.scale() < 0 || integer < 0) {
            return "STRING";
        }
        if (integer <= 29 && type.scale() <= 9) {
            return "NUMERIC(" + type.precision() + "," + type.scale() + ")";
        }
        if (integer <= 38 && type.scale() <= 38) {
            return "BIGNUMERIC(" + type.precision() + "," + type.scale() + ")";
        }
        return "STRING";
    }

    /** Always true: the sink creates the dataset through the datasets API before any SQL. */
    @Override
    public boolean schemaExists(Connection c, String schema) {
        return true;
    }

    @Override
    public String createSchema(String schema) {
        return "CREATE SCHEMA IF NOT EXISTS " + quote(schema);
    }

    /**
     * From the tables API ({@code tables.get}); null when the table does not exist. The marker
     * table's columns are read once per connection: Skippr fixes them and never drops the table,
     * and every commit asks for them.
     */
    @Override
    public LinkedHashMap<String, String> columns(Connection c, String schema, String table)
            throws SQLException {
        QueryConnection.Link link = c.unwrap(QueryConnection.Link.class);
        boolean marker = table.equals(SqlNames.MARKER_TABLE);
        LinkedHashMap<String, String> known = marker ? link.remembered(schema, table) : null;
        if (known != null) {
            return known;
        }
        LinkedHashMap<String, String> columns = read(link, schema, table);
        if (marker && columns != null) {
            link.remember(schema, table, columns);
        }
        return columns;
    }

    private static LinkedHashMap<String, String> read(
            QueryConnection.Link link, String schema, String table) throws SQLException {
        Table t;
        try {
            t = link.rest().getTable(TableId.of(link.connect().project(), schema, table));
        } catch (BigQueryException e) {
            throw QueryConnection.failure(e);
        }
        if (t == null || t.getDefinition().getSchema() == null) {
            return t == null ? null : new LinkedHashMap<>();
        }
        LinkedHashMap<String, String> columns = new LinkedHashMap<>();
        for (Field f : t.getDefinition().getSchema().getFields()) {
            columns.put(f.getName(), typeName(f));
        }
        return columns;
    }

    /** A column's type as {@link #columnType} spells it. */
    static String typeName(Field f) {
        String type = f.getType().getStandardType().name();
        if ((type.equals("NUMERIC") || type.equals("BIGNUMERIC")) && f.getPrecision() != null) {
            return type
                    + "("
                    + f.getPrecision()
                    + ","
                    + (f.getScale() == null ? 0 : f.getScale())
                    + ")";
        }
        return type;
    }

    /** BigQuery enforces no key; merges match on the key columns. */
    @Override
    public boolean hasUniqueKey(Connection c, String schema, String table, List<String> key) {
        return true;
    }

    /** Listed through the tables API by {@link BigQueryStaging}. */
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

    /** A column keeps its type where that holds every new value; anything else is refused. */
    @Override
    public TypeChange change(String existing, DataType wanted) {
        String have = existing.toUpperCase(Locale.ROOT).replace(" ", "");
        String want = columnType(wanted);
        if (have.equals(want) || have.equals("STRING") && !want.equals("BYTES")) {
            return TypeChange.KEEP;
        }
        if (have.equals("FLOAT64") && want.equals("INT64")) {
            return TypeChange.KEEP;
        }
        int[] h = digits(have);
        int[] w = digits(want);
        if (h != null && w != null && w[0] <= h[0] && w[1] <= h[1]) {
            return TypeChange.KEEP;
        }
        return TypeChange.refuse(
                existing
                        + " cannot hold every "
                        + want
                        + " value, and Skippr does not change a BigQuery column's type");
    }

    /** Integer and fraction digits of a NUMERIC or BIGNUMERIC type; null for others. */
    private static int[] digits(String type) {
        if (type.equals("NUMERIC")) {
            return new int[] {29, 9};
        }
        if (type.equals("BIGNUMERIC")) {
            return new int[] {38, 38};
        }
        if (!type.startsWith("NUMERIC(") && !type.startsWith("BIGNUMERIC(")) {
            return null;
        }
        String[] ps = type.substring(type.indexOf('(') + 1, type.length() - 1).split(",");
        int p = Integer.parseInt(ps[0].trim());
        int s = Integer.parseInt(ps[1].trim());
        return new int[] {p - s, s};
    }

    @Override
    public String evolutionPolicy() {
        return "Skippr adds columns (ALTER TABLE … ADD COLUMN IF NOT EXISTS); a column keeps its"
                + " type where that holds every new value (FLOAT64 takes INT64, a wider NUMERIC or"
                + " BIGNUMERIC takes a narrower one, STRING takes anything but BYTES) and any other"
                + " change is refused";
    }

    /** Never used: {@link #change} widens nothing. */
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
    public String addColumn(String qualified, String column, String type) {
        return "ALTER TABLE "
                + qualified
                + " ADD COLUMN IF NOT EXISTS "
                + quote(column)
                + " "
                + type;
    }

    @Override
    public String addPrimaryKey(String qualified, List<String> key) {
        throw new UnsupportedOperationException("BigQuery enforces no key; none is declared");
    }

    /** Staging tables get their description through the tables API. */
    @Override
    public String commentOnTable(String qualified, String comment) {
        throw new UnsupportedOperationException("Skippr sets no table comments by SQL on BigQuery");
    }

    /** {@code CREATE TABLE IF NOT EXISTS}: a repeated commit finds its table. */
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
        return sql.append(")").toString();
    }

    /** {@link SqlDialect#appendNewIds}: the commit is not one transaction. */
    @Override
    public String append(String target, List<String> columns, String select) {
        return appendNewIds(target, columns, select);
    }

    /**
     * One {@code MERGE}: the winning row of each key (the last by {@code orderBy}) deletes the
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
        return "DELETE FROM " + qualified + " WHERE TRUE";
    }

    /**
     * {@code CREATE OR REPLACE TABLE … AS SELECT * FROM} the replacement (one job: readers see the
     * old rows or the new ones), then drops the replacement. A repeat after a stop between the two
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

    /** Views resolve their tables by name at query time: none holds a table. */
    @Override
    public boolean hasDependents(Connection c, String schema, String table) {
        return false;
    }

    @Override
    public String markerTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (`pipeline` STRING NOT NULL, `sink` STRING NOT NULL, `run` INT64 NOT NULL,"
                + " `checkpoint` INT64 NOT NULL, `subtask` INT64 NOT NULL, `parallelism` INT64 NOT"
                + " NULL, `bounded` BOOL NOT NULL, `write_mode` STRING NOT NULL, `rows` INT64 NOT"
                + " NULL, `positions` STRING)";
    }

    /**
     * The loads table ({@code LoadsTable}). Its rows are inserted by their own query job after the
     * marker row's (BigQuery's jobs each commit alone): a commit stopped between the two keeps its
     * rows and marker but records no load.
     */
    @Override
    public String loadsTable(String qualified) {
        return "CREATE TABLE IF NOT EXISTS "
                + qualified
                + " (`pipeline` STRING NOT NULL, `sink` STRING NOT NULL, `stream` STRING NOT NULL,"
                + " `run` INT64 NOT NULL, `checkpoint` INT64 NOT NULL, `subtask` INT64 NOT NULL,"
                + " `mode` STRING NOT NULL, `rows` INT64 NOT NULL, `checksum` INT64 NOT NULL,"
                + " `position_type` STRING, `position_from` STRING, `position_to` STRING,"
                + " `committed_at` TIMESTAMP NOT NULL)";
    }

    /** The time of the loads' query job: the table declares no default. */
    @Override
    public String commitTime() {
        return "CURRENT_TIMESTAMP()";
    }
}
