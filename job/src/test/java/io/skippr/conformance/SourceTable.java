package io.skippr.conformance;

import io.skippr.core.record.DataType.Kind;
import io.skippr.job.TestPostgres;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The kit's source: tables in a schema of their own on the real PostgreSQL. */
final class SourceTable implements AutoCloseable {
    private final TestPostgres pg = new TestPostgres("skippr_kit_");

    /** The replication slot and publication of {@link #cdcYaml}, named after the schema. */
    private final String slot = pg.schema.toLowerCase(Locale.ROOT);

    private boolean replicates;

    SourceTable() throws SQLException {}

    static String env(String name) {
        return TestPostgres.env(name);
    }

    Map<String, String> env() {
        return TestPostgres.passwordEnv();
    }

    String yaml(String table, String cursor) {
        return pg.sourceYaml(table, cursor);
    }

    /**
     * A data source entry reading {@code tables} by change data capture, through a slot and
     * publication of this source's own, which {@link #close} drops.
     */
    String cdcYaml(List<String> tables) {
        replicates = true;
        return pg.sourceYaml(tables, null)
                + "      replication_method: cdc\n      slot_name: "
                + slot
                + "\n      publication: "
                + slot
                + "\n";
    }

    /** Rows {@code from..to-1} of an orders table: amount is id * 1.25. */
    void orders(String table, long from, long to) throws SQLException {
        String t = quote(table);
        exec(
                "CREATE TABLE IF NOT EXISTS "
                        + t
                        + " (id bigint PRIMARY KEY, customer_id int,"
                        + " amount numeric(12,2), status text, updated_at timestamptz NOT NULL)",
                "INSERT INTO "
                        + t
                        + " SELECT i, i % 97, i * 1.25, 'new', timestamptz"
                        + " '2026-11-01 00:00:00Z' + i * interval '1 second' FROM"
                        + " generate_series("
                        + from
                        + ", "
                        + (to - 1)
                        + ") i");
    }

    static BigDecimal amountSum(long from, long to) {
        long ids = (to - 1) * to / 2 - (from - 1) * from / 2;
        return new BigDecimal("1.25").multiply(BigDecimal.valueOf(ids));
    }

    /**
     * Rows {@code from..to-1} of {@code table} as the source holds them now, every column, read
     * with plain JDBC (not through the product), with each column's kind.
     */
    Expected expected(String table, long from, long to) throws SQLException {
        try (Connection c = pg.connect();
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO " + quote(pg.schema));
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT * FROM "
                                    + quote(table)
                                    + " WHERE id >= "
                                    + from
                                    + " AND id < "
                                    + to)) {
                ResultSetMetaData meta = rs.getMetaData();
                Map<String, Kind> columns = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    columns.put(meta.getColumnLabel(i), kind(meta.getColumnTypeName(i)));
                }
                Map<Long, Map<String, Object>> rows = new TreeMap<>();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        row.put(
                                meta.getColumnLabel(i),
                                columns.get(meta.getColumnLabel(i)) == Kind.TIMESTAMP_TZ
                                        ? rs.getObject(i, OffsetDateTime.class)
                                        : rs.getObject(i));
                    }
                    rows.put(rs.getLong("id"), row);
                }
                return new Expected(columns, rows);
            }
        }
    }

    private static Kind kind(String type) {
        return switch (type.toLowerCase(Locale.ROOT)) {
            case "int2" -> Kind.INT16;
            case "int4" -> Kind.INT32;
            case "int8" -> Kind.INT64;
            case "numeric" -> Kind.DECIMAL;
            case "text", "varchar" -> Kind.STRING;
            case "timestamptz" -> Kind.TIMESTAMP_TZ;
            case "timestamp" -> Kind.TIMESTAMP;
            default -> throw new IllegalArgumentException("the kit does not compare " + type);
        };
    }

    /**
     * Order rows {@code from..to-1} as {@code orderLines} writes them to JSONL files: id, customer
     * id, amount and status.
     */
    static Expected orderLines(long from, long to) {
        Map<String, Kind> columns = new LinkedHashMap<>();
        columns.put("id", Kind.INT64);
        columns.put("customer_id", Kind.INT64);
        columns.put("amount", Kind.DECIMAL);
        columns.put("status", Kind.STRING);
        Map<Long, Map<String, Object>> rows = new TreeMap<>();
        for (long i = from; i < to; i++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", i);
            row.put("customer_id", i % 97);
            row.put("amount", new BigDecimal("1.25").multiply(BigDecimal.valueOf(i)));
            row.put("status", "new");
            rows.put(i, row);
        }
        return new Expected(columns, rows);
    }

    /** Source rows by key, each column as a value of its kind. */
    record Expected(Map<String, Kind> columns, Map<Long, Map<String, Object>> rows) {}

    /** Adds a column and rows that use it, with cursor values after every earlier row. */
    void addNoteColumn(String table, long from, long to) throws SQLException {
        String t = quote(table);
        exec(
                "ALTER TABLE " + t + " ADD COLUMN note text",
                "INSERT INTO "
                        + t
                        + " SELECT i, i % 97, i * 1.25, 'new', timestamptz"
                        + " '2026-11-05 00:00:00Z' + i * interval '1 second', 'note ' || i FROM"
                        + " generate_series("
                        + from
                        + ", "
                        + (to - 1)
                        + ") i");
    }

    /** Sets one row's cursor timestamp to PostgreSQL's largest, beyond Parquet's range. */
    void extremeTimestamp(String table, long id) throws SQLException {
        exec(
                "UPDATE "
                        + quote(table)
                        + " SET updated_at = timestamptz '294276-12-31"
                        + " 23:59:59Z' WHERE id = "
                        + id);
    }

    /** A table whose name and columns need quoting everywhere. */
    void hostile(String table, long from, long to) throws SQLException {
        String t = quote(table);
        exec(
                "CREATE TABLE "
                        + t
                        + " (id bigint PRIMARY KEY, \"select\" text, \"two words\" int,"
                        + " \"naïve \"\"q\"\"\" text, amount numeric(12,2))",
                "INSERT INTO "
                        + t
                        + " SELECT i, 'from', i, 'ü''\"', i * 1.25 FROM"
                        + " generate_series("
                        + from
                        + ", "
                        + (to - 1)
                        + ") i");
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** Sets {@code status} of rows {@code from..to-1}, moving their cursor past every insert. */
    void update(String table, long from, long to, String status) throws SQLException {
        exec(
                "UPDATE "
                        + quote(table)
                        + " SET status = '"
                        + status.replace("'", "''")
                        + "', updated_at = timestamptz '2026-11-20 00:00:00Z' + id * interval '1"
                        + " second' WHERE id >= "
                        + from
                        + " AND id < "
                        + to);
    }

    /**
     * Inserts order {@code id} in a transaction it leaves open: commit or roll back the returned
     * connection. Its cursor value is below that of rows other transactions commit meanwhile.
     */
    java.sql.Connection openInsert(String table, long id) throws SQLException {
        java.sql.Connection c = openTransaction();
        try {
            insertIn(c, table, id);
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * A connection in a transaction that has begun (it holds a snapshot, as a transaction that took
     * {@code now()} or a sequence value does) but has not written, so it has no transaction id.
     */
    java.sql.Connection openTransaction() throws SQLException {
        java.sql.Connection c = pg.connect();
        try (java.sql.Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("SET search_path TO " + quote(pg.schema));
            st.execute("SELECT now()");
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Inserts order {@code id} in {@code c}'s transaction, without committing it. */
    void insertIn(java.sql.Connection c, String table, long id) throws SQLException {
        try (java.sql.Statement st = c.createStatement()) {
            st.execute(
                    "INSERT INTO "
                            + quote(table)
                            + " SELECT i, i % 97, i * 1.25, 'new', timestamptz"
                            + " '2026-11-01 00:00:00Z' + i * interval '1 second' FROM"
                            + " generate_series("
                            + id
                            + ", "
                            + id
                            + ") i");
        }
    }

    void delete(String table, long from, long to) throws SQLException {
        exec("DELETE FROM " + quote(table) + " WHERE id >= " + from + " AND id < " + to);
    }

    void exec(String... sql) throws SQLException {
        pg.exec(sql);
    }

    @Override
    public void close() throws Exception {
        try {
            if (replicates) {
                dropSlot();
            }
        } finally {
            pg.close();
        }
    }

    /** Drops the slot once no walsender holds it (a finished run's lets go of it at once). */
    private void dropSlot() throws Exception {
        try (Connection c = pg.connect();
                Statement st = c.createStatement()) {
            KitPipeline.await(
                    () -> {
                        try (ResultSet rs =
                                st.executeQuery(
                                        "SELECT count(*) FROM pg_replication_slots WHERE"
                                                + " slot_name = '"
                                                + slot
                                                + "' AND active")) {
                            rs.next();
                            return rs.getLong(1) == 0;
                        }
                    });
            st.execute(
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE"
                            + " slot_name = '"
                            + slot
                            + "'");
            st.execute("DROP PUBLICATION IF EXISTS " + quote(slot));
        }
    }
}
