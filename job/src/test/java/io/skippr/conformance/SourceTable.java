package io.skippr.conformance;

import io.skippr.job.TestPostgres;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Map;

/** The kit's source: tables in a schema of their own on the real PostgreSQL. */
final class SourceTable implements AutoCloseable {
    private final TestPostgres pg = new TestPostgres("skippr_kit_");

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
        java.sql.Connection c = pg.connect();
        try (java.sql.Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("SET search_path TO " + quote(pg.schema));
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
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    void delete(String table, long from, long to) throws SQLException {
        exec("DELETE FROM " + quote(table) + " WHERE id >= " + from + " AND id < " + to);
    }

    void exec(String... sql) throws SQLException {
        pg.exec(sql);
    }

    @Override
    public void close() throws SQLException {
        pg.close();
    }
}
